package dev.cairn.bench.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CoreBenchmarkSmokeTest {

    private static final int SUBTASKS = 5;

    static Stream<Arguments> drivers() {
        return Stream.of(
                Arguments.of("cairn", (IntFunction<CoordinatorDriver>) CairnCoreDriver::new),
                Arguments.of("flink", (IntFunction<CoordinatorDriver>) n -> new FlinkCoordinatorDriver(n, true)),
                Arguments.of("flink-stateless",
                        (IntFunction<CoordinatorDriver>) n -> new FlinkCoordinatorDriver(n, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("drivers")
    void shouldCompleteOnTheLastAckInEveryCoordinator(String name, IntFunction<CoordinatorDriver> factory) {
        try (CoordinatorDriver driver = factory.apply(SUBTASKS)) {
            List<Long> ids = new ArrayList<>();
            for (int cycle = 0; cycle < CoreBenchmarks.WARM_CYCLES; cycle++) {
                long id = driver.trigger();
                ids.add(id);
                for (int subtask = 0; subtask < SUBTASKS - 1; subtask++) {
                    assertThat(driver.ack(id, subtask)).as("ack of subtask %d of checkpoint %d", subtask, id)
                            .isFalse();
                }
                assertThat(driver.ack(id, SUBTASKS - 1)).as("last ack of checkpoint %d", id).isTrue();
            }
            assertThat(ids).as("checkpoint ids").isSorted().doesNotHaveDuplicates();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("drivers")
    void shouldNotCountADuplicateAckInAnyCoordinator(String name, IntFunction<CoordinatorDriver> factory) {
        try (CoordinatorDriver driver = factory.apply(SUBTASKS)) {
            long first = driver.cycle();
            long second = driver.trigger();

            assertThat(second).isGreaterThan(first);
            assertThat(driver.ack(second, 0)).isFalse();
            assertThat(driver.ack(second, 0)).as("the duplicate").isFalse();
            for (int subtask = 1; subtask < SUBTASKS - 1; subtask++) {
                assertThat(driver.ack(second, subtask)).isFalse();
            }
            assertThat(driver.ack(second, SUBTASKS - 1)).as("the last distinct ack").isTrue();
        }
    }

    @Test
    void shouldReadTheRunFlags() {
        CoreRunSettings settings = CoreRunSettings.parse("--quick", "--subtasks", "10, 20", "--prof-gc", "--out",
                "x.md", "--warm-acks", "7");

        assertThat(settings.forks()).isZero();
        assertThat(settings.warmAcks()).isEqualTo(7);
        assertThat(settings.subtasks()).containsExactly(10, 20);
        assertThat(settings.gcProfiler()).isTrue();
        assertThat(settings.out()).isEqualTo(Path.of("x.md"));
        assertThat(CoreRunSettings.parse("").forks()).as("full by default").isEqualTo(1);
    }

    @Test
    void shouldWriteATableRowForEveryOperationAndSize(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("core.md");
        CoreRunSettings settings = CoreRunSettings.parse("--quick", "--iteration-ms", "50", "--subtasks", "4",
                "--out", out.toString());

        String table = CoreBenchmarkMain.run(settings);

        assertThat(out).content().isEqualTo(table);
        assertThat(table).contains("Messages are built before the measured call on both sides")
                .contains("| Flink stateless | Cairn/Flink stateless |")
                .contains("| Cairn B/op | Flink B/op | Flink stateless B/op |");
        for (CoreReport.Operation operation : CoreReport.Operation.values()) {
            assertThat(table.lines().filter(line -> line.startsWith("| " + operation.label + " (")))
                    .as("rows of %s: wall clock and CPU", operation.label)
                    .hasSize(2)
                    .allSatisfy(row -> assertThat(row).contains(" | 4 | ").doesNotContain("n/a"));
        }
    }
}
