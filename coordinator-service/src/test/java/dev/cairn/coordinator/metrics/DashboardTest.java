package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Grafana dashboard {@code docs/monitoring/cairn-dashboard.json}: its panels query what a coordinator exports. */
class DashboardTest {

    private static final Path DASHBOARD = AlertRulesTest.FOLDER.resolve("cairn-dashboard.json");

    @TempDir
    static Path stateDir;

    private static Set<String> exported;
    private static JsonNode dashboard;

    @BeforeAll
    static void scrapeACoordinatorAndReadTheDashboard() throws IOException {
        exported = new TreeSet<>(ExportedMetrics.sampleNames(ExportedMetrics.scrape(stateDir)));
        exported.addAll(AlertRulesTest.PROMETHEUS_SERIES);
        dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    }

    @Test
    void shouldQueryOnlyMetricsTheCoordinatorExportsInEveryPanel() {
        assertThat(dashboard.path("panels")).isNotEmpty();
        for (JsonNode panel : dashboard.path("panels")) {
            List<String> expressions = new ArrayList<>();
            panel.path("targets").forEach(target -> expressions.add(target.path("expr").asText()));
            assertThat(expressions).as("queries of panel %s", panel.path("title").asText()).isNotEmpty();
            expressions.forEach(expression -> assertThat(PromQl.metricNames(expression))
                    .as("metrics of panel %s: %s", panel.path("title").asText(), expression)
                    .isNotEmpty().isSubsetOf(exported));
        }
    }

    @Test
    void shouldListTheJobsOfTheJobStatusMetricWhenChoosingAJob() {
        List<String> jobQueries = new ArrayList<>();
        dashboard.path("templating").path("list").forEach(variable -> {
            if (variable.path("name").asText().equals("job")) {
                jobQueries.add(variable.path("definition").asText());
            }
        });

        assertThat(jobQueries).containsExactly("label_values(cairn_job_status, job)");
    }

    @Test
    void shouldShowEveryPerJobMetricOfTheCoordinatorOnSomePanel() {
        Set<String> shown = new TreeSet<>();
        dashboard.path("panels").forEach(panel -> panel.path("targets")
                .forEach(target -> shown.addAll(PromQl.metricNames(target.path("expr").asText()))));

        assertThat(shown).contains("cairn_job_status", "cairn_checkpoint_last_completed_id",
                "cairn_checkpoints_completed_total", "cairn_checkpoints_failed_total", "cairn_restores_total",
                "cairn_dead_letters_total", "cairn_checkpoint_last_completed_duration_seconds",
                "cairn_checkpoint_last_completed_size_bytes");
    }
}
