package dev.cairn.bench.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The per-invocation teardown of the measured benchmark states, called as JMH calls it: it fails an invocation
 * whose measured call built a message, and lets pass the benchmarks, which deliver messages built in the setup.
 */
class MeasuredCallCheckTest {

    private static final int SUBTASKS = 4;

    private final CoreBenchmarks benchmarks = new CoreBenchmarks();
    private final CoreBenchmarks.InvocationMeter meter = new CoreBenchmarks.InvocationMeter();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cairn", "flink", "flink-stateless"})
    void shouldFailTheInvocationWhenTheMeasuredCallBuildsAnAck(String impl) {
        CoreBenchmarks.FreshCheckpoint state = started(new CoreBenchmarks.FreshCheckpoint(), impl);
        try {
            state.freshCheckpoint(meter);
            state.driver.ack(state.pending, 0);

            assertThatThrownBy(state::endInvocation).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(impl + " built 1 message(s) inside the measured call");
        } finally {
            state.stop();
        }
    }

    @Test
    void shouldFailTheInvocationWhenTheMeasuredCallBuildsCairnsTriggerRequest() {
        CoreBenchmarks.NothingPending state = started(new CoreBenchmarks.NothingPending(), "cairn");
        try {
            state.nothingPending(meter);
            state.pending = state.driver.trigger();

            assertThatThrownBy(state::endInvocation).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cairn built 1 message(s) inside the measured call");
        } finally {
            state.stop();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cairn", "flink", "flink-stateless"})
    void shouldPassTheInvocationsWhenTheBenchmarksDeliverMessagesBuiltInTheSetup(String impl) {
        CoreBenchmarks.FreshCheckpoint fresh = started(new CoreBenchmarks.FreshCheckpoint(), impl);
        CoreBenchmarks.AllButLastAcked allButLast = started(new CoreBenchmarks.AllButLastAcked(), impl);
        CoreBenchmarks.NothingPending nothingPending = started(new CoreBenchmarks.NothingPending(), impl);
        try {
            long lastTriggered = -1;
            for (int invocation = 0; invocation < 3; invocation++) {
                fresh.freshCheckpoint(meter);
                assertThat(benchmarks.nonFinalAcks(fresh)).as("acks that completed the checkpoint").isZero();
                fresh.endInvocation();

                allButLast.allButLastAcked(meter);
                assertThat(benchmarks.completingAck(allButLast)).as("the last ack completed").isTrue();
                allButLast.endInvocation();

                nothingPending.nothingPending(meter);
                long triggered = benchmarks.trigger(nothingPending);
                nothingPending.endInvocation();
                assertThat(triggered).isGreaterThan(lastTriggered);
                lastTriggered = triggered;
            }
            assertThat(meter.operations).isEqualTo(3L * (SUBTASKS - 1 + 1 + 1));
        } finally {
            fresh.stop();
            allButLast.stop();
            nothingPending.stop();
        }
    }

    private static <T extends CoreBenchmarks.Coordinator> T started(T state, String impl) {
        state.impl = impl;
        state.subtasks = SUBTASKS;
        state.warmAcks = 0;
        state.start();
        return state;
    }
}
