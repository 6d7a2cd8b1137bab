// Types for parse-prometheus-text-format 1.1 (it ships none): families with their samples, values as text.
declare module 'parse-prometheus-text-format' {
  interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface PrometheusFamily {
    name: string;
    help: string;
    type: string;
    metrics: PrometheusSample[];
  }
  /** Parses the Prometheus text exposition format into metric families. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
