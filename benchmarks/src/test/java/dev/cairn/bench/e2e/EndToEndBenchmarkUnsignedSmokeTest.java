package dev.cairn.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The end-to-end benchmark's unsigned mode ({@code --unsigned}), one tiny shape only (a few seconds). */
class EndToEndBenchmarkUnsignedSmokeTest {

    @TempDir
    Path out;

    @Test
    void shouldMeasureUnsignedRecordsAgainstACoordinatorWithoutMasterKey() throws Exception {
        EndToEndBenchmark.quietLogs();

        Results results = EndToEndBenchmark.run("--unsigned", "--shapes=2x5", "--warmup-checkpoints=0",
                "--checkpoints=2", "--steady-after=1", "--latency-samples=0", "--size-subtasks=", "--review=none",
                "--timeout-s=30", "--out=" + out);

        assertThat(results.signed()).isFalse();
        assertThat(results.shapes()).singleElement().satisfies(row -> {
            assertThat(row.failure()).isNull();
            assertThat(row.completed()).isEqualTo(4);
            assertThat(row.cairn().perSecond()).isPositive();
            assertThat(row.trivial().perSecond()).isPositive();
        });
        assertThat(Files.readString(out.resolve("e2e.md"))).contains("sidecar records unsigned (--unsigned",
                "fed the same records (unsigned)");
    }
}
