package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.cairn.coordinator.testbed.OptionalTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alert rules of {@code docs/monitoring/cairn-alerts.yaml}: valid for Prometheus ({@code promtool check rules}),
 * each one firing on the series of its unit test and silent on the others ({@code promtool test rules
 * cairn-alerts-test.yaml}), and reading only metrics a coordinator exports. Needs Debian's {@code prometheus}
 * (promtool) for the first two, skipped without it unless {@code -Dcairn.promtool=required}.
 */
class AlertRulesTest {

    static final Path FOLDER = Path.of("..").toAbsolutePath().normalize().resolve("docs/monitoring");
    private static final Path RULES = FOLDER.resolve("cairn-alerts.yaml");
    private static final Path UNIT_TESTS = FOLDER.resolve("cairn-alerts-test.yaml");
    /** Prometheus' own series of a scrape target, which the rules may read too. */
    static final Set<String> PROMETHEUS_SERIES = Set.of("up");

    @TempDir
    static Path stateDir;

    private static Set<String> exported;

    @BeforeAll
    static void scrapeACoordinator() {
        exported = new TreeSet<>(ExportedMetrics.sampleNames(ExportedMetrics.scrape(stateDir)));
        exported.addAll(PROMETHEUS_SERIES);
    }

    @Test
    void shouldBeValidRulesWhenPromtoolChecksThem() throws Exception {
        String output = promtool("check", "rules", RULES.getFileName().toString());

        assertThat(output).contains("SUCCESS: " + alerts().size() + " rules found");
    }

    @Test
    void shouldFireEachAlertOnlyWhenItsUnitTestSaysSo() throws Exception {
        assertThat(promtool("test", "rules", UNIT_TESTS.getFileName().toString())).contains("SUCCESS");
    }

    @Test
    void shouldUnitTestEveryAlertFiringAndSilent() throws IOException {
        JsonNode tests = new YAMLMapper().readTree(UNIT_TESTS.toFile());
        Set<String> fired = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        tests.path("tests").forEach(test -> test.path("alert_rule_test").forEach(check ->
                (check.path("exp_alerts").isEmpty() ? silent : fired).add(check.path("alertname").asText())));

        List<String> names = alerts().stream().map(rule -> rule.path("alert").asText()).toList();
        assertThat(fired).as("alerts a unit test fires").containsExactlyInAnyOrderElementsOf(names);
        assertThat(silent).as("alerts a unit test expects silent")
                .containsAll(names.stream().filter(name -> !name.equals("CairnKafkaDurabilityWarnings")).toList());
    }

    @Test
    void shouldReadOnlyMetricsTheCoordinatorExports() throws IOException {
        for (JsonNode rule : alerts()) {
            assertThat(PromQl.metricNames(rule.path("expr").asText()))
                    .as("metrics read by %s", rule.path("alert").asText())
                    .isNotEmpty().isSubsetOf(exported);
        }
    }

    private static List<JsonNode> alerts() throws IOException {
        JsonNode rules = new YAMLMapper().readTree(RULES.toFile());
        return rules.path("groups").findValues("rules").stream()
                .flatMap(group -> StreamSupport.stream(group.spliterator(), false))
                .toList();
    }

    /** Runs promtool in the rules' folder; its output, once it exited 0. */
    private static String promtool(String... arguments) throws IOException, InterruptedException {
        Path promtool = OptionalTool.PROMTOOL.assumeInstalled().get(0);
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(FOLDER.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool ended").isTrue();
        assertThat(process.exitValue()).as("promtool %s exit code; it said:\n%s", command, output).isZero();
        return output;
    }
}
