package dev.cairn.bench.core;

import java.lang.management.ManagementFactory;
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

/**
 * JMH benchmarks of one coordinator core, Cairn's or Flink's ({@code impl}), over one job of one vertex of
 * {@code subtasks} subtasks, in the calling thread. Every trial first runs full checkpoints, at least
 * {@link #WARM_CYCLES} and at least {@code warmAcks} acks, so the measured state is the steady state (history,
 * recently-ended ids and retained checkpoints are full and every completion evicts) and the JIT is done.
 *
 * <p>The first three benchmarks deliver messages (a decoded record for Cairn, the RPC payload for Flink) built in
 * their per-invocation setup, outside the measurement, as a coordinator receives them built; their
 * per-invocation teardown fails the run when the driver built a message during the invocation
 * ({@link CoordinatorDriver#messagesBuilt()}).
 *
 * <ul>
 *   <li>{@link #nonFinalAcks}: the N-1 acks of one checkpoint that do not complete it, as one invocation
 *       (divide the score by N-1 for one ack); the last ack of the previous checkpoint, the trigger of the
 *       next and building the N-1 messages run in a per-invocation setup.
 *   <li>{@link #completingAck}: the last ack of a checkpoint (completion, retention, subsumption, history
 *       eviction, notifications); the trigger, the N-1 other acks and building the last one run in the setup.
 *   <li>{@link #trigger}: one manual trigger; completing the previous checkpoint and building the trigger
 *       message run in the setup.
 *   <li>{@link #cycle}: a trigger and N acks, building their messages, as a throughput in cycles per second.
 * </ul>
 *
 * Every benchmark has per-invocation helpers (the cycle's only read the {@link InvocationMeter}); they add
 * two CPU-time readings (some tens of ns) to each invocation's CPU time, and the shortest invocation here
 * (N = 10) takes microseconds.
 */
public class CoreBenchmarks {

    /** Full checkpoints run before measuring, at least: more than the history (10) and the id memory (16). */
    static final int WARM_CYCLES = 30;

    /** The coordinator under test, warmed up to its steady state; each benchmark's state extends it. */
    @State(Scope.Thread)
    public abstract static class Coordinator {

        @Param({"10", "1000", "10000"})
        public int subtasks;

        @Param({"cairn", "flink", "flink-stateless"})
        public String impl;

        /**
         * Acks to run in full cycles before measuring (at least {@link #WARM_CYCLES} cycles), so that the JIT
         * has compiled the hot paths before JMH's warm-up iterations even at N = 10.
         */
        @Param({"500000"})
        public int warmAcks;

        CoordinatorDriver driver;

        /** The meter of the current invocation, set by the per-invocation setup. */
        InvocationMeter meter;

        /** The pending checkpoint, or -1 when nothing is pending. */
        long pending = -1;

        /** How many subtasks, from subtask 0 on, have acknowledged the pending checkpoint. */
        int acked;

        /** The driver's count of built messages when the current invocation's measurement started. */
        long builtBeforeMeasuring;

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

        /** Starts measuring an invocation: from here on the driver must build no message. */
        void startMeasuring(InvocationMeter invocationMeter) {
            builtBeforeMeasuring = driver.messagesBuilt();
            meter = invocationMeter;
            meter.start();
        }

        /**
         * Stops measuring an invocation of {@code operations} operations.
         *
         * @throws IllegalStateException when the driver built a message during the invocation, which fails the run
         */
        void stopMeasuring(int operations) {
            meter.stop(operations);
            long built = driver.messagesBuilt() - builtBeforeMeasuring;
            if (built != 0) {
                throw new IllegalStateException(impl + " built " + built + " message(s) inside the measured call; "
                        + "messages must be built in the setup");
            }
        }
    }

    /** A freshly triggered checkpoint that no subtask has acknowledged, and the built acks of all but the last. */
    @State(Scope.Thread)
    public static class FreshCheckpoint extends Coordinator {
        Object[] acks;

        @Setup(Level.Invocation)
        public void freshCheckpoint(InvocationMeter invocationMeter) {
            completePending();
            trigger();
            acks = new Object[subtasks - 1];
            for (int subtask = 0; subtask < acks.length; subtask++) {
                acks[subtask] = driver.ackMessage(pending, subtask);
            }
            startMeasuring(invocationMeter);
        }

        @TearDown(Level.Invocation)
        public void endInvocation() {
            stopMeasuring(subtasks - 1);
        }
    }

    /** A checkpoint acknowledged by every subtask but the last, and the last one's built ack. */
    @State(Scope.Thread)
    public static class AllButLastAcked extends Coordinator {
        Object lastAck;

        @Setup(Level.Invocation)
        public void allButLastAcked(InvocationMeter invocationMeter) {
            trigger();
            for (; acked < subtasks - 1; acked++) {
                driver.ack(pending, acked);
            }
            lastAck = driver.ackMessage(pending, subtasks - 1);
            startMeasuring(invocationMeter);
        }

        @TearDown(Level.Invocation)
        public void endInvocation() {
            stopMeasuring(1);
        }
    }

    /** Nothing pending (the previous checkpoint, if any, is completed), and the next trigger's message. */
    @State(Scope.Thread)
    public static class NothingPending extends Coordinator {
        Object triggerMessage;

        @Setup(Level.Invocation)
        public void nothingPending(InvocationMeter invocationMeter) {
            completePending();
            triggerMessage = driver.triggerMessage();
            startMeasuring(invocationMeter);
        }

        @TearDown(Level.Invocation)
        public void endInvocation() {
            stopMeasuring(1);
        }
    }

    /** The steady state between two full cycles; a cycle builds its messages, so the meter alone is read. */
    @State(Scope.Thread)
    public static class Idle extends Coordinator {
        @Setup(Level.Invocation)
        public void idle(InvocationMeter invocationMeter) {
            meter = invocationMeter;
            meter.start();
        }

        @TearDown(Level.Invocation)
        public void endInvocation() {
            meter.stop(1);
        }
    }

    /**
     * The CPU time of the benchmark thread and the bytes it allocated in the measured invocations, read right
     * after each invocation's setup and right before its teardown, so that neither counts the setup (JMH's GC
     * profiler does: its bytes per operation would include building the messages). JMH resets and reports the
     * counters per iteration; the report divides them by {@link #operations}. CPU time is not inflated by other
     * processes, as the wall-clock score is.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class InvocationMeter {
        private static final com.sun.management.ThreadMXBean THREADS =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        /** CPU time of the measured invocations of this iteration. */
        public long cpuNanos;

        /** Bytes those invocations allocated. */
        public long allocatedBytes;

        /** Operations those invocations performed. */
        public long operations;

        private long startedAt;
        private long allocatedAt;

        void start() {
            allocatedAt = THREADS.getCurrentThreadAllocatedBytes();
            startedAt = THREADS.getCurrentThreadCpuTime();
        }

        void stop(int performed) {
            long stoppedAt = THREADS.getCurrentThreadCpuTime();
            allocatedBytes += THREADS.getCurrentThreadAllocatedBytes() - allocatedAt;
            cpuNanos += stoppedAt - startedAt;
            operations += performed;
        }
    }

    /** Delivers the N-1 acks built in the setup; returns how many completed the checkpoint (none should). */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int nonFinalAcks(FreshCheckpoint state) {
        int completed = 0;
        for (Object ack : state.acks) {
            completed += state.driver.deliverAck(ack) ? 1 : 0;
        }
        state.acked = state.subtasks - 1;
        return completed;
    }

    /** Delivers the last ack, built in the setup; returns whether it completed the checkpoint. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public boolean completingAck(AllButLastAcked state) {
        boolean completed = state.driver.deliverAck(state.lastAck);
        state.pending = -1;
        return completed;
    }

    /** Delivers the trigger message built in the setup; returns the triggered checkpoint's id. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long trigger(NothingPending state) {
        state.pending = state.driver.deliverTrigger(state.triggerMessage);
        state.acked = 0;
        return state.pending;
    }

    /** A whole cycle, building its trigger and its N ack messages inside the measured call. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long cycle(Idle state) {
        return state.driver.cycle();
    }
}
