package dev.cairn.bench.core;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * {@code subtasks} subtasks, in the calling thread. Every trial first runs full checkpoints, at least
 * {@link #WARM_CYCLES} and at least {@code warmAcks} acks, so the measured state is the steady state (history,
 * recently-ended ids and retained checkpoints are full and every completion evicts) and the JIT is done.
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
 * Every benchmark has per-invocation helpers (the cycle's only read the {@link CpuClock}); they add two
 * timestamps (some tens of ns) to each measured invocation, and the shortest invocation here (N = 10) takes
 * microseconds.
 */
public class CoreBenchmarks {

    /** Full checkpoints run before measuring, at least: more than the history (10) and the id memory (16). */
    static final int WARM_CYCLES = 30;

    /** The coordinator under test, warmed up to its steady state; each benchmark's state extends it. */
    @State(Scope.Thread)
    public abstract static class Coordinator {

        @Param({"10", "1000", "10000"})
        public int subtasks;

        @Param({"cairn", "flink"})
        public String impl;

        /**
         * Acks to run in full cycles before measuring (at least {@link #WARM_CYCLES} cycles), so that the JIT
         * has compiled the hot paths before JMH's warm-up iterations even at N = 10.
         */
        @Param({"500000"})
        public int warmAcks;

        CoordinatorDriver driver;

        /** The clock of the current invocation, set by the per-invocation setup. */
        CpuClock clock;

        /** The pending checkpoint, or -1 when nothing is pending. */
        long pending = -1;

        /** How many subtasks, from subtask 0 on, have acknowledged the pending checkpoint. */
        int acked;

        @Setup(Level.Trial)
        public void start() {
            driver = CoreDrivers.create(impl, subtasks);
            int cycles = Math.max(WARM_CYCLES, warmAcks / subtasks);
            for (int cycle = 0; cycle < cycles; cycle++) {
                driver.cycle();
            }
        }

        @TearDown(Level.Trial)
        public void stop() {
            completePending();
            driver.close();
        }

        /** Triggers a checkpoint; it is pending with no acks. */
        void trigger() {
            pending = driver.trigger();
            acked = 0;
        }

        /** Acks the pending checkpoint, if any, from the subtasks that have not; fails unless that completes it. */
        void completePending() {
            if (pending < 0) {
                return;
            }
            boolean completed = false;
            for (int subtask = acked; subtask < subtasks; subtask++) {
                completed = driver.ack(pending, subtask);
            }
            if (!completed) {
                throw new IllegalStateException(impl + " did not complete checkpoint " + pending);
            }
            pending = -1;
        }

        void startClock(CpuClock invocationClock) {
            clock = invocationClock;
            clock.start();
        }
    }

    /** A freshly triggered checkpoint that no subtask has acknowledged. */
    @State(Scope.Thread)
    public static class FreshCheckpoint extends Coordinator {
        @Setup(Level.Invocation)
        public void freshCheckpoint(CpuClock invocationClock) {
            completePending();
            trigger();
            startClock(invocationClock);
        }

        @TearDown(Level.Invocation)
        public void stopClock() {
            clock.stop(subtasks - 1);
        }
    }

    /** A checkpoint acknowledged by every subtask but the last. */
    @State(Scope.Thread)
    public static class AllButLastAcked extends Coordinator {
        @Setup(Level.Invocation)
        public void allButLastAcked(CpuClock invocationClock) {
            trigger();
            for (; acked < subtasks - 1; acked++) {
                driver.ack(pending, acked);
            }
            startClock(invocationClock);
        }

        @TearDown(Level.Invocation)
        public void stopClock() {
            clock.stop(1);
        }
    }

    /** Nothing pending: the previous checkpoint, if any, is completed. */
    @State(Scope.Thread)
    public static class NothingPending extends Coordinator {
        @Setup(Level.Invocation)
        public void nothingPending(CpuClock invocationClock) {
            completePending();
            startClock(invocationClock);
        }

        @TearDown(Level.Invocation)
        public void stopClock() {
            clock.stop(1);
        }
    }

    /** The steady state between two full cycles. */
    @State(Scope.Thread)
    public static class Idle extends Coordinator {
        @Setup(Level.Invocation)
        public void idle(CpuClock invocationClock) {
            startClock(invocationClock);
        }

        @TearDown(Level.Invocation)
        public void stopClock() {
            clock.stop(1);
        }
    }

    /**
     * The CPU time of the benchmark thread in the measured invocations, read right after each invocation's
     * setup and right before its teardown. JMH resets and reports the two counters per iteration, so that the
     * report can give CPU ns per operation next to the wall-clock score, which other processes inflate.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class CpuClock {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        /** CPU time of the measured invocations of this iteration. */
        public long cpuNanos;

        /** Operations those invocations performed. */
        public long cpuOps;

        private long startedAt;

        void start() {
            startedAt = THREADS.getCurrentThreadCpuTime();
        }

        void stop(int operations) {
            cpuNanos += THREADS.getCurrentThreadCpuTime() - startedAt;
            cpuOps += operations;
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void nonFinalAcks(FreshCheckpoint state, Blackhole blackhole) {
        for (int subtask = 0; subtask < state.subtasks - 1; subtask++) {
            blackhole.consume(state.driver.ack(state.pending, subtask));
        }
        state.acked = state.subtasks - 1;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public boolean completingAck(AllButLastAcked state) {
        boolean completed = state.driver.ack(state.pending, state.subtasks - 1);
        state.pending = -1;
        return completed;
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long trigger(NothingPending state) {
        state.trigger();
        return state.pending;
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long cycle(Idle state) {
        return state.driver.cycle();
    }
}
