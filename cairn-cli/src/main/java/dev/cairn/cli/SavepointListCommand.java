package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.views.SavepointViews;
import dev.cairn.core.views.StateViews;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code cairn savepoint list --job J}: the job's savepoints, newest first, and its restore point, as {@code GET
 * /jobs/{jobId}/savepoints} shows them; read by replaying the job's journal partition with the coordinator's own
 * evolver (no coordinator needed, nothing is sent).
 */
@Command(name = "list",
        description = "Lists a job's savepoints, newest first, and its restore point (what every sidecar restores, "
                + "and what cairn resume continues from), as GET /jobs/{id}/savepoints shows them; reads the "
                + "journal (nothing is sent).")
final class SavepointListCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { TEXT, JSON }

    @ParentCommand
    SavepointCommand savepoint;

    @Spec
    CommandSpec spec;

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--timeout-ms", defaultValue = "600000", paramLabel = "MS",
            description = "How long reading the journal may take at most (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Override
    public Integer call() {
        if (jobId.isBlank() || timeoutMs < 1) {
            throw new ParameterException(spec.commandLine(), jobId.isBlank() ? "--job must not be blank"
                    : "--timeout-ms must be at least 1, was " + timeoutMs);
        }
        CairnCli cli = savepoint.cli;
        return AuditCommand.reporting(spec, () -> {
            Map<String, Object> config = new HashMap<>(cli.clientSettings(spec).settings());
            config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-savepoints");
            Replay replay = new Replay(CoordinatorSettings.DEFAULTS, jobId);
            new JournalReader(config).read(cli.topics(spec).journal(), new JournalReader.Bounds(jobId, null, null),
                    entry -> {
                        if (entry.decoded()) {
                            replay.accept(entry);
                        }
                    }, JournalReader.Progress.NONE, Duration.ofMillis(timeoutMs));
            if (StateViews.job(replay.state(), jobId).isEmpty()) {
                return AuditCommand.notFound(spec, StateViews.removal(replay.state(), jobId)
                        .map(removal -> removal + "; its savepoints' files stay where they are (cairn audit state"
                                + " --job " + jobId + " --as-of a time before the removal lists them)")
                        .orElse("job '" + jobId + "' is not registered"));
            }
            SavepointViews.Savepoints view = SavepointViews.savepoints(replay.state(), jobId);
            PrintWriter out = spec.commandLine().getOut();
            if (format == Format.JSON) {
                AuditOutput.json(out, view);
            } else {
                text(out, view);
            }
            out.flush();
            return 0;
        });
    }

    /** A table, newest first, after a line naming the restore point. */
    static void text(PrintWriter out, SavepointViews.Savepoints view) {
        SavepointViews.RestorePoint point = view.restorePoint();
        out.println("Job " + view.jobId() + ": restore point " + (point == null ? "none (nothing completed yet)"
                : point.checkpointType().toLowerCase(Locale.ROOT) + " " + point.id() + " at "
                        + point.location() + (point.chosen() ? ", chosen by a restore in " + point.restoreMode()
                        + " mode" : "")));
        if (view.savepoints().isEmpty()) {
            out.println("No savepoints kept.");
            return;
        }
        String row = "%-8s %-24s %12s %9s %-10s %-8s %s%n";
        out.printf(row, "ID", "COMPLETED", "SIZE", "SUBTASKS", "ACTION", "RESTORE", "LOCATION");
        for (SavepointViews.Savepoint s : view.savepoints()) {
            out.printf(row, s.id(), AuditOutput.time(s.completionTimestamp()), s.stateSize(), s.numSubtasks(),
                    s.postCheckpointAction() == null ? "-" : s.postCheckpointAction(), s.restorePoint() ? "yes" : "",
                    s.location());
        }
    }
}
