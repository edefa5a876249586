package dev.cairn.bench.e2e;

import dev.cairn.bench.e2e.Results.LatencyRow;
import dev.cairn.bench.e2e.Workload.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Completion latency: a small job runs checkpoints one after another; per checkpoint the time from the last ack
 * produced (the ack producer's {@code flush()} returned, so the broker has it) to the CheckpointCompleted read by
 * the benchmark's control consumer, which reads like a sidecar ({@code read_committed}, fetch.max.wait.ms 20).
 * Next to it the trivial app's latency at the same commit interval: one record produced and flushed -> its
 * output read the same way.
 */
final class LatencyRun {

    private LatencyRun() {}

    static LatencyRow run(CairnDriver driver, TrivialApp trivial, int subtasks, int warmup, int samples) {
        List<Double> cairn = new ArrayList<>();
        String failure = null;
        Job job = null;
        try {
            job = driver.register(1, subtasks).get(0);
            for (int i = 0; i < warmup + samples; i++) {
                Map<String, Long> ids = driver.triggerAll(List.of(job));
                driver.sendAcks(List.of(job), ids);
                long flushed = System.nanoTime();
                driver.awaitCompletions(ids);
                if (i >= warmup) {
                    cairn.add((System.nanoTime() - flushed) / 1e6);
                }
            }
        } catch (RowFailedException e) {
            failure = "did not complete: " + e.getMessage();
        }
        List<Double> reference = trivial.latency(job != null ? job : driver.workload().newJob(subtasks), warmup,
                samples);
        LatencyRow row = new LatencyRow(subtasks, cairn, failure, reference);
        System.out.printf(Locale.ROOT, "  latency: Cairn p50 %.1f ms, p99 %.1f ms over %d checkpoints%s;"
                + " trivial app p50 %.1f ms, p99 %.1f ms%n", Results.percentile(cairn, 50),
                Results.percentile(cairn, 99), cairn.size(), failure == null ? "" : " (" + failure + ")",
                Results.percentile(reference, 50), Results.percentile(reference, 99));
        return row;
    }
}
