package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.core.audit.JournalEntry;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.views.ApiViews;
import dev.cairn.core.views.StateViews;
import dev.cairn.events.JobRemoved;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn audit state --job J [--as-of OFFSET|TIME]}: the job's state as it was then, as the REST API shows it.
 */
@Command(name = "state",
        description = "A job's state as it was at an offset of its journal partition (that record included) or at a "
                + "time (records up to the first with a later timestamp), shown as GET /jobs/{id} and "
                + "GET /jobs/{id}/checkpoints show it. Without --as-of: as it is now.")
final class AuditStateCommand extends AuditSubcommand {

    static final List<String> CSV_HEADER = List.of("field", "value");

    /** The state, as the JSON output shows it. */
    record Report(String jobId, Integer partition, Long lastOffset, Long lastRecordTime, long eventsApplied,
            ApiViews.Job job, ApiViews.CheckpointStats checkpoints) {}

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--as-of", paramLabel = "OFFSET|TIME",
            description = "An offset of the job's journal partition (the record at it included), or a time in "
                    + "ISO-8601 with a zone (e.g. 2024-06-01T12:00:00Z). Default: the journal's end.")
    String asOf;

    @Override
    public Integer call() {
        requireJob(jobId);
        AsOf point;
        try {
            point = asOf == null ? null : AsOf.parse(asOf);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        return AuditCommand.reporting(spec, () -> {
            Replay replay = new Replay(CoordinatorSettings.DEFAULTS, jobId);
            JournalReader.Bounds bounds = new JournalReader.Bounds(jobId, point == null ? null : point.offset(),
                    point == null ? null : point.timeMs());
            List<JournalEntry> removals = new ArrayList<>();
            audit.read(spec, bounds, entry -> {
                replay.accept(entry);
                if (entry.decoded() && entry.event() instanceof JobRemoved removed
                        && removed.getJobId().equals(jobId)) {
                    removals.add(entry);
                }
            }, false);
            if (StateViews.job(replay.state(), jobId).isEmpty()) {
                String asOfPoint = point == null ? "" : " as of " + point.describe();
                return AuditCommand.notFound(spec, StateViews.removal(replay.state(), jobId)
                        .map(removal -> removal + asOfPoint + ", by the journal record at "
                                + removals.get(removals.size() - 1).position() + "; --as-of "
                                + (removals.get(removals.size() - 1).offset() - 1) + " shows the job as it was")
                        .orElse("job '" + jobId + "' " + (replay.applied() == 0 ? "has no record in the journal"
                                : "was not registered") + asOfPoint));
            }
            JournalEntry last = replay.last();
            Report report = new Report(jobId, last.partition(), last.offset(), last.timestampMs(), replay.applied(),
                    StateViews.job(replay.state(), jobId).orElseThrow(),
                    StateViews.checkpoints(replay.state(), jobId).orElseThrow());
            write(spec.commandLine().getOut(), report, point);
            return 0;
        });
    }

    private void write(PrintWriter out, Report report, AsOf point) {
        switch (audit.format) {
            case JSON -> AuditOutput.json(out, report);
            case CSV -> AuditOutput.csv(out, CSV_HEADER, AuditOutput.flatten(report));
            default -> text(out, report, point);
        }
    }

    private static void text(PrintWriter out, Report r, AsOf point) {
        ApiViews.Job job = r.job();
        ApiViews.Schedule schedule = job.schedule();
        ApiViews.CheckpointStats stats = r.checkpoints();
        out.println("Job " + r.jobId() + (point == null ? " now" : " as of " + point.describe()) + ": "
                + r.eventsApplied() + " events applied, the last at " + r.partition() + "/" + r.lastOffset() + " ("
                + AuditOutput.time(r.lastRecordTime()) + ")");
        out.println("  status " + job.state() + ", next checkpoint id " + schedule.nextCheckpointId()
                + ", latest completed " + (schedule.latestCompletedId() == null ? "none" : schedule.latestCompletedId())
                + ", consecutive failures " + schedule.consecutiveFailures());
        out.println("  counts: triggered " + stats.counts().triggered() + ", in progress " + stats.counts().inProgress()
                + ", completed " + stats.counts().completed() + ", failed " + stats.counts().failed());
        out.println("  pending: " + (stats.pending().isEmpty() ? "none" : String.join(", ", stats.pending().stream()
                .map(c -> c.identity().id() + " (" + c.acks().numAcknowledgedSubtasks() + "/"
                        + c.acks().numSubtasks() + " acks)").toList())));
        out.println("  history (newest first): " + (stats.history().isEmpty() ? "none" : String.join(", ",
                stats.history().stream().map(c -> c.identity().id() + " " + c.identity().status()
                        + (c.outcome().failureReason() == null ? "" : " (" + c.outcome().failureReason() + ")"))
                        .toList())));
        out.println("  queued requests: " + schedule.queuedRequests().size() + ", next periodic trigger "
                + AuditOutput.time(schedule.nextPeriodicTrigger()));
        out.flush();
    }
}
