package dev.cairn.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table of the coordinator's metrics in {@code docs/monitoring.md} names exactly the {@code cairn_} metrics a
 * coordinator exports: a metric added, renamed or removed fails this until the table says so.
 */
class MonitoringReferenceTest {

    static final Path MONITORING = AlertRulesTest.FOLDER.resolveSibling("monitoring.md");
    private static final Pattern ROW = Pattern.compile("^\\| `(cairn_[a-z0-9_]+)`", Pattern.MULTILINE);

    @TempDir
    Path stateDir;

    @Test
    void shouldListEveryMetricTheCoordinatorExportsAndNoOtherWhenDocumentingThem() throws IOException {
        Set<String> exported = ExportedMetrics.metrics(ExportedMetrics.scrape(stateDir), "cairn_");

        assertThat(documented("## The coordinator's metrics")).as("the table of docs/monitoring.md; exported: %s",
                exported).containsExactlyInAnyOrderElementsOf(exported);
    }

    /** The metric names of the first column of the table under {@code heading}. */
    static Set<String> documented(String heading) throws IOException {
        String page = Files.readString(MONITORING);
        int start = page.indexOf("\n" + heading + "\n");
        assertThat(start).as("docs/monitoring.md has a section %s", heading).isNotNegative();
        int end = page.indexOf("\n## ", start + heading.length() + 2);
        Matcher row = ROW.matcher(page.substring(start, end < 0 ? page.length() : end));
        Set<String> names = new TreeSet<>();
        while (row.find()) {
            names.add(row.group(1));
        }
        return names;
    }
}
