package dev.cairn.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.bench.e2e.Results.ShapeRow;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the whole end-to-end benchmark once with tiny figures against one in-JVM broker (about half a minute), in
 * its default mode (sidecar records signed, coordinators verifying), then checks every part of what it reported.
 */
class EndToEndBenchmarkSmokeTest {

    @TempDir
    static Path out;

    private static Results results;

    @BeforeAll
    static void runTheBenchmarkWithTinyFigures() throws Exception {
        EndToEndBenchmark.quietLogs();
        results = EndToEndBenchmark.run("--shapes=1x10,2x5", "--warmup-checkpoints=1", "--checkpoints=3",
                "--steady-after=1",
                "--latency-samples=5", "--latency-warmup=1", "--latency-subtasks=3", "--size-subtasks=10",
                "--review-shape=1x10", "--review-checkpoints=2", "--review=producer.linger.ms=0", "--review-repeats=1",
                "--timeout-s=30", "--out=" + out);
    }

    @Test
    void shouldRunSignedByDefault() throws Exception {
        assertThat(results.signed()).isTrue();
        assertThat(Files.readString(out.resolve("e2e.md"))).contains("sidecar records signed (HMAC-SHA256",
                "fed the same records (signed alike, not verified)");
    }

    @Test
    void shouldMeasureEveryShapeNextToTheTrivialApp() {
        assertThat(results.shapes()).extracting(ShapeRow::shape).containsExactly(new Shape(1, 10), new Shape(2, 5));
        for (ShapeRow row : results.shapes()) {
            assertThat(row.failure()).isNull();
            assertThat(row.cairn().perSecond()).isPositive();
            assertThat(row.trivial().perSecond()).isPositive();
            assertThat(row.rawPerSecond()).isPositive();
            assertThat(row.ratio()).isPositive();
        }
    }

    @Test
    void shouldCountACompletionForEveryCheckpointTriggered() {
        assertThat(results.shapes()).extracting(ShapeRow::triggered).containsExactly(3L, 6L);
        assertThat(results.shapes()).allSatisfy(row -> assertThat(row.completed()).isEqualTo(row.triggered()));
    }

    @Test
    void shouldMeasureCompletionLatencyNextToTheTrivialApp() {
        assertThat(results.latency().failure()).isNull();
        assertThat(results.latency().cairnMs()).hasSize(5).allSatisfy(ms -> assertThat(ms).isPositive());
        assertThat(results.latency().trivialMs()).hasSize(5).allSatisfy(ms -> assertThat(ms).isPositive());
    }

    @Test
    void shouldMeasureTheControlBytesAndTheLargestRecordOfACheckpoint() {
        assertThat(results.sizes()).singleElement().satisfies(row -> {
            assertThat(row.failure()).isNull();
            assertThat(row.subtasks()).isEqualTo(10);
            // a trigger and a completion, each keyed by and naming the 32-character job id
            assertThat(row.controlBytes()).isGreaterThan(2 * 2 * 32);
            assertThat(row.largestBytes()).isPositive();
            assertThat(row.largestTopic()).isNotEmpty();
        });
    }

    @Test
    void shouldReviewEverySettingsVariant() {
        assertThat(results.review()).extracting(Results.ReviewRow::variant)
                .containsExactly("producer.linger.ms=0");
        assertThat(results.review()).allSatisfy(row -> {
            assertThat(row.failure()).isNull();
            assertThat(row.cairn().perSecond()).isPositive();
            assertThat(row.repeats()).hasSize(1);
        });
    }

    @Test
    void shouldWriteTheMarkdownTablesAndTheChart() throws Exception {
        String markdown = Files.readString(out.resolve("e2e.md"));
        assertThat(markdown).contains("cores", "commit", "| 1 x 10 |", "| 2 x 5 |", "| Cairn completion |",
                "| trivial app record |", "| 10 |", "| producer.linger.ms=0 |");
        assertThat(Files.size(out.resolve("e2e.png"))).isPositive();
        byte[] png = Files.readAllBytes(out.resolve("e2e.png"));
        assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
