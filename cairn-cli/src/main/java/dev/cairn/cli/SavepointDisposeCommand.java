package dev.cairn.cli;

import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command.Dispose;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RequestEnvelope;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code cairn savepoint dispose --job J (--path P | --id N)}: produces a {@code DisposeSavepoint}, waits for it. */
@Command(name = "dispose",
        description = "Disposes of one of a job's savepoints (Flink: flink savepoint -d <path>): it is no point to "
                + "restore from any more. The job's restore point is not disposed of. Produces a DisposeSavepoint and "
                + "waits for the coordinator's outcome.")
final class SavepointDisposeCommand implements Callable<Integer> {

    /** The savepoint: by location or by id, exactly one. */
    static final class Which {
        @Option(names = "--path", required = true, paramLabel = "LOCATION", description = "The savepoint's location.")
        String path;

        @Option(names = "--id", required = true, paramLabel = "ID", description = "The savepoint's checkpoint id.")
        Long id;
    }

    @ParentCommand
    SavepointCommand savepoint;

    @Spec
    CommandSpec spec;

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    @Mixin
    AwaitFlags await;

    @Override
    public Integer call() {
        DisposeSavepoint event = event();
        String named = event.getCheckpointId() != null ? "savepoint " + event.getCheckpointId()
                : "the savepoint at " + event.getSavepointPath();
        return new AwaitedRequest(jobId, event.getRequestId(), new RequestEnvelope(event), "the disposal of " + named,
                outcome -> "Disposed of savepoint " + outcome.getCheckpointId() + " of job '" + jobId
                        + "': it is no point to restore from any more.")
                .send(savepoint.cli, spec, await.waitMs);
    }

    /** The event the flags describe. */
    DisposeSavepoint event() {
        List<String> problems = new ArrayList<>();
        CairnCli.requireText("--job", jobId, problems);
        if (which.path != null && which.path.isBlank()) {
            problems.add("--path is empty: give the savepoint's location");
        }
        if (which.id != null && which.id < 0) {
            problems.add("--id must be a checkpoint id (>= 0), not " + which.id);
        }
        await.check(problems);
        CairnCli.requireNoProblems(spec, problems);
        DisposeSavepoint event = DisposeSavepoint.newBuilder().setJobId(jobId)
                .setRequestId(await.requestIdOrNew())
                .setCheckpointId(which.id).setSavepointPath(which.path).setRequester(CairnCli.REQUESTER)
                .setTimestampMs(savepoint.cli.nowMs()).build();
        InputChecks.problem(new Dispose(event), InputLimits.DEFAULTS).ifPresent(problems::add);
        CairnCli.requireNoProblems(spec, problems);
        return event;
    }
}
