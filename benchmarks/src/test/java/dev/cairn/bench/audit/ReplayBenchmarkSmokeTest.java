package dev.cairn.bench.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the audit replay benchmark once with a small journal (seconds) and checks what it reported. */
class ReplayBenchmarkSmokeTest {

    @TempDir
    Path out;

    @Test
    void shouldMeasureEveryReaderOverTheWholeJournalAndWriteTheReport() throws Exception {
        Path report = out.resolve("audit.md");

        ReplayBenchmark.Results results = ReplayBenchmark.run("--events=5000", "--jobs=5", "--subtasks=4",
                "--repeats=1", "--out=" + report);

        assertThat(results.events()).isGreaterThanOrEqualTo(5000);
        assertThat(results.reported()).extracting(ReplayBenchmark.Row::reader).containsExactly(ReplayBenchmark.RAW,
                ReplayBenchmark.DECODING, ReplayBenchmark.REPLAY, ReplayBenchmark.CHECK);
        assertThat(results.reported()).allSatisfy(row -> {
            assertThat(row.events()).isEqualTo(results.events());
            assertThat(row.perSecond()).isPositive();
        });
        assertThat(results.ratio(ReplayBenchmark.REPLAY, ReplayBenchmark.DECODING)).isPositive();
        assertThat(Files.readString(report)).contains("| audit replay (decode + evolve) |");
    }
}
