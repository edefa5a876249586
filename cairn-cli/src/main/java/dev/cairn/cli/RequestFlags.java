package dev.cairn.cli;

import dev.cairn.client.requests.SendFailedException;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The flags {@code cairn trigger} and {@code cairn stop} share (a picocli mixin): the job, the savepoint's target and
 * format, the request id; and how they, and {@code cairn savepoint}, check and send the {@code TriggerRequest} they
 * make and wait for its outcome.
 */
final class RequestFlags {

    /** The flag of each field of a trigger request, as {@link TriggerRequests}' problems name them. */
    private static final Map<String, String> FLAGS = Map.of("jobId", "--job", "requestId", "--request-id",
            "targetLocation", "--target", "type", "--savepoint", "force", "--force",
            "options.backupType", "--checkpoint-type", "options.savepointFormat", "--format",
            "options.unalignedEnabled", "--unaligned", "options.alignedTimeoutMs", "--aligned-timeout-ms",
            "postCheckpointAction", "--drain");

    @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
    String jobId;

    @Option(names = "--target", paramLabel = "LOCATION",
            description = "Savepoints only: where to write it (default: the job's storage location).")
    String target;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Savepoints only: canonical or native (default: the job's --savepoint-format).")
    SavepointFormat format;

    @Option(names = "--request-id", paramLabel = "ID",
            description = "The request's id (default: a new UUID); sending the same id again asks only once.")
    String requestId;

    /** The command that mixes these flags in. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The {@code cairn} command of this subcommand: its common flags and clock. */
    CairnCli cli() {
        return (CairnCli) command.parent().userObject();
    }

    /** The request id to send: {@code --request-id}, else a new UUID. */
    String requestIdOrNew() {
        return requestId != null ? requestId : UUID.randomUUID().toString();
    }

    /**
     * Checks the request with the coordinator's rules ({@link TriggerRequests#problems}), naming each problem by
     * its flag, sends it, prints it and its request id and, unless {@code waitMs} is 0, waits for the checkpoint's
     * outcome: exit code 0 when it completed (its location and id printed), 1 when it failed or none came in time.
     *
     * @throws picocli.CommandLine.ParameterException naming every problem, by flag (nothing is sent)
     * @throws SendFailedException naming the request id to retry with when the request could not be sent
     */
    int send(TriggerRequest request, long waitMs, boolean progress, List<String> moreProblems) {
        return send(cli(), command, request, waitMs, progress, moreProblems);
    }

    /** The same, for a command without these flags ({@code cairn savepoint}). */
    static int send(CairnCli cli, CommandSpec command, TriggerRequest request, long waitMs, boolean progress,
            List<String> moreProblems) {
        List<String> problems = new ArrayList<>(moreProblems);
        TriggerRequests.problems(request).stream()
                .map(p -> FLAGS.getOrDefault(p.path(), p.path()) + " " + p.message()).forEach(problems::add);
        CairnCli.requireNoProblems(command, problems);
        return new AwaitedRequest(request.getJobId(), request.getRequestId(), new RequestEnvelope(request),
                TriggerRequests.describe(request), (outcome, location) -> completed(request, outcome, location))
                .send(cli, command, waitMs, progress);
    }

    /** What a completed checkpoint or savepoint prints, as Flink's {@code flink savepoint} does. */
    static String completed(TriggerRequest request, RequestOutcome outcome, String location) {
        String kind = request.getType() == CheckpointType.SAVEPOINT ? "Savepoint" : "Checkpoint";
        return kind + " completed. Path: " + (location == null ? "(not known; GET /jobs/" + request.getJobId()
                + "/checkpoints/" + outcome.getCheckpointId() + " names it)" : location) + System.lineSeparator()
                + "checkpoint id: " + outcome.getCheckpointId();
    }
}
