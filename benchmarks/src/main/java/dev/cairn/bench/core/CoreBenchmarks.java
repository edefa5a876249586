package dev.cairn.bench.core;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH benchmarks of one coordinator core, Cairn's or Flink's ({@code impl}), over one job of one vertex of
 * {@code subtasks} subtasks, in the calling thread. Every trial first runs {@link #WARM_CYCLES} full
 * checkpoints, so the measured state is the steady state: history, recently-ended ids and retained
 * checkpoints are full and every completion evicts.
 *
 * <ul>
 *   <li>{@link #nonFinalAcks}: the N-1 acks of one checkpoint that do not complete it, as one invocation
 *       (divide the score by N-1 for one ack); the last ack of the previous checkpoint and the trigger of the
 *       next run in a per-invocation setup, outside the measurement.
 *   <li>{@link #completingAck}: the last ack of a checkpoint (completion, retention, subsumption, history
 *       eviction, notifications); the trigger and the N-1 other acks run in the per-invocation setup.
 *   <li>{@link #trigger}: one manual trigger; completing the previous checkpoint runs in the per-invocation
 *       setup.
 *   <li>{@link #cycle}: a trigger and N acks, as a throughput in cycles per second.
 * </ul>
 *
 * A per-invocation setup adds two timestamps (some tens of ns) to each measured invocation; the shortest
 * one measured here (N = 10) takes microseconds.
 */
public class CoreBenchmarks {

    /** Full checkpoints run before measuring: more than Flink's and Cairn's history (10) and id memory (16). */
    static final int WARM_CYCLES = 30;

    /** The coordinator under test, warmed up to its steady state; each benchmark's state extends it. */
    @State(Scope.Thread)
    public abstract static class Coordinator {

        @Param({"10", "1000", "10000"})
        public int subtasks;

        @Param({"cairn", "flink"})
        public String impl;

        CoordinatorDriver driver;

        /** The id of the checkpoint the setup left pending, or -1 when nothing is pending. */
        long pending = -1;

        @Setup(Level.Trial)
        public void start() {
            driver = CoreDrivers.create(impl, subtasks);
            for (int cycle = 0; cycle < WARM_CYCLES; cycle++) {
                driver.cycle();
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            driver.close();
        }

        /** Acks the pending checkpoint from the given subtasks; fails unless the last of them completes it. */
        void completePending(int fromSubtask) {
            boolean completed = false;
            for (int subtask = fromSubtask; subtask < subtasks; subtask++) {
                completed = driver.ack(pending, subtask);
            }
            if (!completed) {
                throw new IllegalStateException(impl + " did not complete checkpoint " + pending);
            }
            pending = -1;
        }
    }

    /** A freshly triggered checkpoint that no subtask has acknowledged. */
    @State(Scope.Thread)
    public static class FreshCheckpoint extends Coordinator {
        @Setup(Level.Invocation)
        public void freshCheckpoint() {
            if (pending >= 0) {
                completePending(subtasks - 1);
            }
            pending = driver.trigger();
        }
    }

    /** A checkpoint acknowledged by every subtask but the last. */
    @State(Scope.Thread)
    public static class AllButLastAcked extends Coordinator {
        @Setup(Level.Invocation)
        public void allButLastAcked() {
            pending = driver.trigger();
            for (int subtask = 0; subtask < subtasks - 1; subtask++) {
                driver.ack(pending, subtask);
            }
        }
    }

    /** Nothing pending: the previous checkpoint, if any, is completed. */
    @State(Scope.Thread)
    public static class NothingPending extends Coordinator {
        @Setup(Level.Invocation)
        public void nothingPending() {
            if (pending >= 0) {
                completePending(0);
            }
        }
    }

    /** The steady state between two full cycles. */
    @State(Scope.Thread)
    public static class Idle extends Coordinator {
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void nonFinalAcks(FreshCheckpoint state, Blackhole blackhole) {
        for (int subtask = 0; subtask < state.subtasks - 1; subtask++) {
            blackhole.consume(state.driver.ack(state.pending, subtask));
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public boolean completingAck(AllButLastAcked state) {
        return state.driver.ack(state.pending, state.subtasks - 1);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long trigger(NothingPending state) {
        state.pending = state.driver.trigger();
        return state.pending;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long cycle(Idle state) {
        return state.driver.cycle();
    }
}
