package dev.cairn.cli;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.TriggerRequest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn stop}: produces the {@code TriggerRequest} of a stop-with-savepoint (Flink's {@code flink stop}), a
 * savepoint after which the coordinator finishes the job: its tasks stop where they are (SUSPEND), or with
 * {@code --drain} after they drained their input (TERMINATE). Either way the job is FINISHED, and the savepoint is
 * its restore point, from which {@code cairn resume} continues. It waits for the savepoint's outcome, as
 * {@code flink stop} does, unless {@code --detached}.
 */
@Command(name = "stop",
        description = "Stops a job with a savepoint (Flink: flink stop): produces a TriggerRequest for a savepoint "
                + "that stops the job when it completes: the job is FINISHED and the savepoint is its restore "
                + "point, from which cairn resume --job JOB (or cairn status --status RUNNING) continues. Waits for "
                + "the savepoint and prints its path and checkpoint id (exit code 0), or why it failed (1); "
                + "--detached prints the request id and returns.")
final class StopCommand implements Callable<Integer> {

    @Mixin
    RequestFlags flags;

    @Option(names = "--drain",
            description = "Let the tasks drain their input before the savepoint (Flink: stop --drain, TERMINATE); "
                    + "without it they stop where they are (SUSPEND). Either way the job is FINISHED once the "
                    + "savepoint completes, and cairn resume --job JOB continues from the savepoint.")
    boolean drain;

    @Option(names = "--detached",
            description = "Return once the request is sent (Flink: -detached); its outcome is then the RequestOutcome "
                    + "on <prefix>journal, or cairn request JOB ID with --rest-url.")
    boolean detached;

    @Mixin
    WaitFlags wait;

    @Override
    public Integer call() {
        TriggerRequest request = request();
        List<String> problems = new ArrayList<>();
        if (!detached) {
            wait.check(problems);
        }
        int exit = flags.send(request, detached ? 0 : wait.waitMs, wait.progress, problems);
        PrintWriter out = flags.command.commandLine().getOut();
        if (detached) {
            out.println("Once the savepoint completes, job '" + request.getJobId() + "' is FINISHED and the "
                    + "savepoint is its restore point: cairn resume --job " + request.getJobId() + " continues from "
                    + "it.");
        } else if (exit == 0) {
            out.println("Job '" + request.getJobId() + "' is FINISHED and the savepoint is its restore point: cairn "
                    + "resume --job " + request.getJobId() + " continues from it.");
        }
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
