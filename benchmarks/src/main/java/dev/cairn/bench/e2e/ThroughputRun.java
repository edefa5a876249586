package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.Rate;
import dev.cairn.bench.e2e.Workload.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One throughput shape against one coordinator. Per round: one TriggerRequest per job, wait until every job's
 * CheckpointTriggered is read, then produce all acks of all jobs (interleaved across jobs) and wait until every
 * job's CheckpointCompleted is read. A round's time runs from just before the first ack is produced to the last
 * completion read, so acks/s = acks of the round / that time (the trigger phase is outside the clock).
 */
final class ThroughputRun {

    /** What a run measured, or how far it got before it failed. */
    record Outcome(List<Job> jobs, Rate rate, String failure, long triggered, long completed,
            Map<org.apache.kafka.common.TopicPartition, Long> steadyAcksFrom,
            Map<org.apache.kafka.common.TopicPartition, Long> steadyAcksTo, Map<String, Long> steadyWrites) {
    }

    private ThroughputRun() {}

    /**
     * Registers the shape's jobs and runs {@code checkpoints} rounds; the rate counts the rounds after the first
     * {@code steadyAfter} (all rounds when there are no more than that).
     */
    static Outcome run(String bootstrap, CairnDriver driver, Shape shape, int checkpoints, int steadyAfterRounds) {
        int steadyAfter = steadyState(checkpoints, steadyAfterRounds);
        int drained = driver.drainDeadLetters();
        if (drained > 0) {
            System.out.printf("(%d dead letters of earlier rows dropped)%n", drained);
        }
        List<Job> jobs = List.of();
        List<Double> roundMs = new ArrayList<>();
        long triggered = 0;
        long completed = 0;
        Map<org.apache.kafka.common.TopicPartition, Long> from = null;
        Map<org.apache.kafka.common.TopicPartition, Long> to = null;
        Map<String, Long> writesFrom = null;
        Map<String, Long> writes = null;
        String failure = null;
        long t0 = System.nanoTime();
        try {
            jobs = driver.register(shape.jobs(), shape.subtasks());
            System.out.printf(Locale.ROOT, "  %s: %d jobs registered and started in %.1f s%n", shape, jobs.size(),
                    (System.nanoTime() - t0) / 1e9);
            for (int round = 0; round < checkpoints; round++) {
                if (round == steadyAfter) {
                    from = RawConsume.endOffsets(bootstrap, driver.topics().acks());
                    writesFrom = CoordinatorWrites.endOffsets(bootstrap, driver.topics());
                }
                Map<String, Long> ids = driver.triggerAll(jobs);
                triggered += ids.size();
                long first = System.nanoTime();
                driver.sendAcks(jobs, ids);
                driver.awaitCompletions(ids);
                roundMs.add((System.nanoTime() - first) / 1e6);
                completed += ids.size();
            }
            to = RawConsume.endOffsets(bootstrap, driver.topics().acks());
            writes = CoordinatorWrites.between(writesFrom, CoordinatorWrites.endOffsets(bootstrap, driver.topics()));
        } catch (RowFailedException e) {
            failure = "did not complete: " + e.getMessage();
            System.out.printf("  %s: %s%n", shape, failure);
        }
        Rate rate = failure == null ? new Rate(shape.acksPerRound(), roundMs, steadyAfter) : null;
        if (rate != null) {
            System.out.printf(Locale.ROOT, "  %s: %.0f acks/s steady state (rounds %d-%d), %.0f over all rounds;"
                    + " round ms %s%n", shape, rate.perSecond(), steadyAfter + 1,
                    checkpoints, rate.allRoundsPerSecond(), format(roundMs));
        }
        return new Outcome(jobs, rate, failure, triggered, completed, from, to, writes);
    }

    /** The unmeasured rounds: {@code steadyAfter}, or none when there are no more rounds than that. */
    static int steadyState(int checkpoints, int steadyAfter) {
        return steadyAfter < checkpoints ? steadyAfter : 0;
    }

    static String format(List<Double> values) {
        StringBuilder text = new StringBuilder("[");
        for (double v : values) {
            text.append(text.length() > 1 ? ", " : "").append(String.format(Locale.ROOT, "%.0f", v));
        }
        return text.append(']').toString();
    }
}
