// Load the live-stream harness, validate its trajectories, and render the system prompt for a request.
// Run: npx tsx examples/validate-and-render.ts
import {
  formatIssue,
  hashHarness,
  loadHarnessFile,
  renderSystemPrompt,
  validateTrajectoriesFile,
} from 'harness-augment';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
console.log(`harness ${harness.id} ${hashHarness(harness).harness}`);

const report = await validateTrajectoriesFile('fixtures/livestream/trajectories.jsonl', harness);
for (const issue of report.issues) console.log(formatIssue(issue));
console.log(`${report.read} read = ${report.valid} valid + ${report.invalid} invalid`);

const prompt = renderSystemPrompt(harness, {
  room: {
    title: 'Winter warm-up',
    host: 'Xiaoyu',
    platform: 'Douyin',
    local_time: '20:15',
    current_link_id: 3,
  },
  products: [{ link_id: 3, title: 'Down jacket', live_price: 459 }],
});
console.log(prompt.split('\n').slice(0, 4).join('\n'));
