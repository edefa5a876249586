package dev.cairn.cli;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.TriggerRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn stop}: produces the {@code TriggerRequest} of a stop-with-savepoint (Flink's {@code flink stop}), a
 * savepoint after which the coordinator finishes the job: suspended, or with {@code --drain} terminated after its
 * tasks drained their input.
 */
@Command(name = "stop",
        description = "Stops a job with a savepoint (Flink: flink stop): produces a TriggerRequest for a savepoint "
                + "that stops the job when it completes. Prints the request id, which the coordinator's "
                + "RequestOutcome on <prefix>journal carries.")
final class StopCommand implements Callable<Integer> {

    @Mixin
    RequestFlags flags;

    @Option(names = "--drain",
            description = "Let the tasks drain their input before the savepoint and terminate the job (Flink: "
                    + "stop --drain); without it the job is suspended and can resume from the savepoint.")
    boolean drain;

    @Override
    public Integer call() {
        return flags.send(request());
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
