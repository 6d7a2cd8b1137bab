import YAML from 'yaml';
const v = { e: ['yes','no','on','off','y','n','Y','N','~','null','Null','NULL','0755','0o755','1:20','190:20:30','1_000','.inf','-.Inf','.nan','0x1F','0b101','true','True','2001-12-14','1e3','+12','12.5', '<<', '=', 'normal'], n: 1, b: true, z: null, f: 1.5, s: 'a: b', m: 'multi\nline' };
const out = YAML.stringify(v, { version: '1.1' });
console.log(out);
const back11 = YAML.parse(out, { version: '1.1' });
const back12 = YAML.parse(out);
console.log(JSON.stringify(back11) === JSON.stringify(v), JSON.stringify(back12) === JSON.stringify(v));
const plain = YAML.stringify(v);
console.log(JSON.stringify(YAML.parse(plain, { version: '1.1' })) === JSON.stringify(v));
