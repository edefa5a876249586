package dev.cairn.faults;

import dev.cairn.events.CheckpointAborted;
import dev.cairn.pipeline.ExactlyOnceCheck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The figures of a chaos run, printed as the docs quote them: kills by kind, restarts, the workers' own failures
 * (exit 1) by the reason their logs give, checkpoints completed and aborted (by reason), the recovery of every kill
 * (kill → the first checkpoint triggered after the replacement started, or the Kafka node was back, completed) with
 * its median and maximum per kind, for Kafka node faults also how long the node took to be back, the throughput,
 * and, with the checkpoints in S3, what the bucket holds.
 */
final class ChaosReport {

    private ChaosReport() {
    }

    /**
     * The report of {@code pipeline}'s run with {@code kills} done; {@code elapsed} is from the first event produced
     * until the output reached every key's final count.
     */
    static String of(ChaosPipeline pipeline, List<ChaosKills.Kill> kills, Duration elapsed,
            ExactlyOnceCheck.Report check) {
        StringBuilder out = new StringBuilder("[chaos] figures for job ").append(pipeline.jobId).append('\n');
        Map<ChaosKills.Kind, Long> byKind = kills.stream()
                .collect(Collectors.groupingBy(ChaosKills.Kill::kind, TreeMap::new, Collectors.counting()));
        long coordinatorKills = byKind.getOrDefault(ChaosKills.Kind.COORDINATOR, 0L);
        long nodeFaults = kills.stream().filter(k -> k.kind().isBrokerFault()).count();
        out.append(String.format("  kills: %d %s%n", kills.size(), byKind));
        out.append(String.format("  restarts: %d worker processes (after a non-zero exit), %d coordinators, "
                + "%d Kafka nodes%n", pipeline.workers.restarts(), coordinatorKills, nodeFaults));
        WorkerFailures failures = WorkerFailures.of(pipeline.workers);
        out.append(String.format("  worker failures (exit 1, not killed): %d, by reason in their logs %s; "
                + "%d records in expired batches%n", failures.exits(), failures.reasons(), failures.expiredRecords()));
        List<CheckpointAborted> aborted = pipeline.aborted();
        Map<String, Long> reasons = aborted.stream().collect(Collectors.groupingBy(
                a -> a.getReason().toString(), TreeMap::new, Collectors.counting()));
        out.append(String.format("  checkpoints: %d completed, %d aborted %s%n", pipeline.completed().size(),
                aborted.size(), reasons));
        for (ChaosKills.Kind kind : byKind.keySet()) {
            List<Long> millis = kills.stream().filter(k -> k.kind() == kind)
                    .flatMap(k -> k.recovery().stream()).map(Duration::toMillis).sorted().toList();
            long missing = byKind.get(kind) - millis.size();
            out.append(String.format("  recovery after %s kills: median %s, max %s, all %s ms%s%n", kind,
                    seconds(median(millis)), seconds(millis.isEmpty() ? -1 : millis.get(millis.size() - 1)), millis,
                    missing == 0 ? "" : "; " + missing + " did not recover within the wait"));
            List<Long> back = kills.stream().filter(k -> k.kind() == kind)
                    .flatMap(k -> k.backAfter().stream()).map(Duration::toMillis).sorted().toList();
            if (!back.isEmpty()) {
                out.append(String.format("    the node back after: median %s, max %s, all %s ms%n",
                        seconds(median(back)), seconds(back.get(back.size() - 1)), back));
            }
        }
        long events = pipeline.input.events();
        out.append(String.format("  %,d events over %,d keys: produced in %.1f s (%.0f events/s), output complete "
                        + "%.1f s after the first event: %.0f events/s end to end%n", events,
                pipeline.input.keys(), (pipeline.producedAllAtMs() - pipeline.producingSinceMs()) / 1000.0,
                events * 1000.0 / Math.max(1, pipeline.producedAllAtMs() - pipeline.producingSinceMs()),
                elapsed.toMillis() / 1000.0, events * 1000.0 / Math.max(1, elapsed.toMillis())));
        pipeline.storage.stored(pipeline.jobId).ifPresent(stored -> out.append(String.format("  storage: %s/%s holds "
                + "%,d objects, %,d bytes at the end%s%n", pipeline.storage.checkpoints(), pipeline.jobId,
                stored.count(), stored.bytes(), pipeline.storage.storedSavepoints().map(savepoints -> String.format(
                        "; the savepoints %,d objects, %,d bytes", savepoints.count(), savepoints.bytes()))
                        .orElse(""))));
        out.append("  ").append(check);
        return out.toString();
    }

    private static long median(List<Long> sorted) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String seconds(long millis) {
        return millis < 0 ? "-" : String.format("%.1f s", millis / 1000.0);
    }
}
