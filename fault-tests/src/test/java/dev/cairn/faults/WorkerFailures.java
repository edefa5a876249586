package dev.cairn.faults;

import dev.cairn.pipeline.PipelineProcesses;
import dev.cairn.pipeline.PipelineTopology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the pipeline's workers failed on by themselves, not killed: how many exited with status 1 (a task that
 * failed, or found it was behind), and the reasons they printed as they exited ({@code <role>: <reason>}, one line
 * each, in their logs), by kind: {@code expired batch} for a send that expired ({@code Expiring N record(s) for
 * <partition>: ... (TimeoutException)}, which a short {@code delivery.timeout.ms} makes happen while a partition
 * has no leader), else the first exception class the line names, else the reason's first words. Also counts the
 * records of the expired batches so reported.
 *
 * @param exits exits with status 1
 * @param reasons reason kind → how many lines
 * @param expiredRecords records in the expired batches the workers reported
 */
record WorkerFailures(long exits, Map<String, Long> reasons, long expiredRecords) {

    private static final Pattern FAILURE = Pattern.compile("^(?:" + String.join("|", PipelineTopology.tasks())
            + "): (.*)$");
    private static final Pattern EXPIRED = Pattern.compile("Expiring (\\d+) record");
    private static final Pattern EXCEPTION = Pattern.compile("\\b(\\w+(?:Exception|Error))\\b");
    private static final String CLOSING = "closing the task failed";
    private static final int WORDS = 6;

    /** The failures of {@code workers} so far, from their events and logs. */
    static WorkerFailures of(PipelineProcesses workers) {
        long exits = workers.events().stream()
                .filter(e -> e.kind() == PipelineProcesses.Kind.EXITED && e.exitStatus() == 1).count();
        List<String> lines = new ArrayList<>();
        for (String role : PipelineTopology.tasks()) {
            for (int subtask = 0; subtask < PipelineTopology.PARALLELISM; subtask++) {
                lines.addAll(lines(workers.log(role, subtask)));
            }
        }
        return of(exits, lines);
    }

    /** The failures that {@code exits} exits with status 1 and the workers' log lines {@code lines} show. */
    static WorkerFailures of(long exits, List<String> lines) {
        Map<String, Long> reasons = new TreeMap<>();
        long expired = 0;
        for (String line : lines) {
            Matcher failure = FAILURE.matcher(line);
            if (!failure.matches() || failure.group(1).startsWith(CLOSING)) {
                continue;
            }
            String reason = failure.group(1);
            Matcher batch = EXPIRED.matcher(reason);
            boolean expiredBatch = batch.find();
            if (expiredBatch) {
                expired += Long.parseLong(batch.group(1));
            }
            reasons.merge(expiredBatch ? "expired batch" : kind(reason), 1L, Long::sum);
        }
        return new WorkerFailures(exits, reasons, expired);
    }

    /**
     * The first exception class the reason names (the cause, where a task wraps it: {@code operator count-0: its
     * output failed: org.apache.kafka.common.errors.TimeoutException: ... (IllegalStateException)}), else its first
     * words (digits as #).
     */
    private static String kind(String reason) {
        Matcher exception = EXCEPTION.matcher(reason);
        if (exception.find()) {
            return exception.group(1);
        }
        String[] words = reason.replaceAll("\\d+", "#").split("\\s+");
        return String.join(" ", List.of(words).subList(0, Math.min(WORDS, words.length)));
    }

    /** The lines of {@code log}, a byte that is not UTF-8 (a process killed while writing) replaced. */
    private static List<String> lines(Path log) {
        if (!Files.exists(log)) {
            return List.of();
        }
        try {
            return new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the worker log " + log, e);
        }
    }
}
