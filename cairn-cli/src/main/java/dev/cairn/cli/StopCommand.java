package dev.cairn.cli;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.TriggerRequest;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn stop}: produces the {@code TriggerRequest} of a stop-with-savepoint (Flink's {@code flink stop}), a
 * savepoint after which the coordinator finishes the job: its tasks stop where they are (SUSPEND), or with
 * {@code --drain} after they drained their input (TERMINATE). Either way the job is FINISHED, and the savepoint is
 * its restore point, from which {@code cairn resume} continues.
 */
@Command(name = "stop",
        description = "Stops a job with a savepoint (Flink: flink stop): produces a TriggerRequest for a savepoint "
                + "that stops the job when it completes: the job is FINISHED and the savepoint is its restore "
                + "point, from which cairn resume --job JOB (or cairn status --status RUNNING) continues. Prints the "
                + "request id, which the coordinator's RequestOutcome on <prefix>journal carries.")
final class StopCommand implements Callable<Integer> {

    @Mixin
    RequestFlags flags;

    @Option(names = "--drain",
            description = "Let the tasks drain their input before the savepoint (Flink: stop --drain, TERMINATE); "
                    + "without it they stop where they are (SUSPEND). Either way the job is FINISHED once the "
                    + "savepoint completes, and cairn resume --job JOB continues from the savepoint.")
    boolean drain;

    @Override
    public Integer call() {
        TriggerRequest request = request();
        int exit = flags.send(request);
        PrintWriter out = flags.command.commandLine().getOut();
        out.println("Once the savepoint completes, job '" + request.getJobId() + "' is FINISHED and the savepoint is "
                + "its restore point: cairn resume --job " + request.getJobId() + " continues from it.");
        out.flush();
        return exit;
    }

    /** The event the flags describe: a savepoint with Flink's default force and a post-checkpoint action. */
    TriggerRequest request() {
        return TriggerRequest.newBuilder()
                .setJobId(flags.jobId)
                .setRequestId(flags.requestIdOrNew())
                .setType(CheckpointType.SAVEPOINT)
                .setForce(null)
                .setTargetLocation(flags.target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(flags.cli().nowMs())
                .setPostCheckpointAction(drain ? PostCheckpointAction.TERMINATE : PostCheckpointAction.SUSPEND)
                .setOptions(flags.format == null ? null
                        : RequestedOptions.newBuilder().setSavepointFormat(flags.format).build())
                .build();
    }
}
