package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void shouldFindTheMetricsAndNotTheFunctionsLabelsOrKeywordsWhenReadingAnExpression() {
        String expression = "(time() - cairn_checkpoint_last_completion_timestamp_seconds{job=~\"$job\"}) "
                + "> 3 * cairn_checkpoint_interval_seconds and on (job, instance) "
                + "sum by (job, le) (rate(cairn_checkpoint_duration_seconds_bucket{status=\"RUNNING\"}[5m])) == 1e3";

        assertThat(PromQl.metricNames(expression)).containsExactly("cairn_checkpoint_duration_seconds_bucket",
                "cairn_checkpoint_interval_seconds", "cairn_checkpoint_last_completion_timestamp_seconds");
    }
}
