package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.core.audit.CheckpointTimeline;
import dev.cairn.core.audit.CheckpointTimeline.Entry;
import dev.cairn.core.audit.CheckpointTimeline.Timeline;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn audit timeline --job J --checkpoint N}: one checkpoint's story, read from the job's journal partition.
 */
@Command(name = "timeline",
        description = "One checkpoint's timeline: when it was triggered, every accepted ack (time, task, subtask, "
                + "attempt, size), declines and discarded acks, and its completion or abort with the reason.")
final class AuditTimelineCommand extends AuditSubcommand {

    static final List<String> CSV_HEADER = List.of("partition", "offset", "time", "event", "task", "subtask",
            "attempt", "size_bytes", "detail");

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--checkpoint", required = true, paramLabel = "N", description = "The checkpoint id.")
    long checkpointId;

    @Override
    public Integer call() {
        requireJob(jobId);
        if (checkpointId < 0) {
            throw usage("--checkpoint must be 0 or more, was " + checkpointId);
        }
        return AuditCommand.reporting(spec, () -> {
            CheckpointTimeline builder = new CheckpointTimeline(jobId, checkpointId);
            long[] records = {0};
            audit.read(spec, new JournalReader.Bounds(jobId, null, null), entry -> {
                records[0]++;
                builder.accept(entry);
            }, false);
            if (records[0] == 0) {
                return AuditCommand.notFound(spec, "job '" + jobId + "' has no record in the journal");
            }
            if (!builder.found()) {
                return AuditCommand.notFound(spec, "checkpoint " + checkpointId + " of job '" + jobId
                        + "' is not in the journal (" + records[0] + " records of the job read)");
            }
            write(spec.commandLine().getOut(), builder.timeline());
            return 0;
        });
    }

    private void write(PrintWriter out, Timeline timeline) {
        switch (audit.format) {
            case JSON -> AuditOutput.json(out, timeline);
            case CSV -> AuditOutput.csv(out, CSV_HEADER, rows(timeline));
            default -> text(out, timeline);
        }
    }

    private static List<List<Object>> rows(Timeline timeline) {
        List<List<Object>> rows = new ArrayList<>();
        for (Entry e : timeline.entries()) {
            rows.add(java.util.Arrays.asList(e.partition(), e.offset(), AuditOutput.time(e.timeMs()), e.kind(),
                    e.task(), e.subtask(), e.attempt(), e.sizeBytes(), e.detail()));
        }
        return rows;
    }

    private static void text(PrintWriter out, Timeline t) {
        out.println("Checkpoint " + t.checkpointId() + " of job " + t.jobId() + ": " + t.outcome()
                + (t.type() == null ? "" : " (" + t.type() + ")"));
        out.println("  triggered at " + AuditOutput.time(t.triggeredAtMs()) + ", "
                + (t.acksExpected() == null ? "tasks not triggered" : t.acksExpected() + " acks expected") + ", "
                + t.acksAccepted() + " accepted");
        if (t.endedAtMs() != null) {
            out.println("  " + (t.outcome() == CheckpointTimeline.Outcome.COMPLETED ? "completed" : "aborted") + " at "
                    + AuditOutput.time(t.endedAtMs()) + (t.triggeredAtMs() == null ? ""
                            : " after " + (t.endedAtMs() - t.triggeredAtMs()) + " ms")
                    + (t.reason() == null ? "" : ": " + t.reason()));
        }
        for (Entry e : t.entries()) {
            StringBuilder line = new StringBuilder("  ").append(e.partition()).append('/').append(e.offset())
                    .append("  ").append(AuditOutput.time(e.timeMs())).append("  ").append(e.kind());
            if (e.task() != null) {
                line.append("  ").append(e.task()).append(e.subtask() == null ? "" : "/" + e.subtask());
            }
            if (e.attempt() != null) {
                line.append("  attempt ").append(e.attempt());
            }
            if (e.sizeBytes() != null) {
                line.append("  ").append(e.sizeBytes()).append(" bytes");
            }
            if (e.detail() != null) {
                line.append("  ").append(e.detail());
            }
            out.println(line);
        }
        out.flush();
    }
}
