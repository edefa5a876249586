package dev.cairn.cli;

import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn trigger}: produces a {@code TriggerRequest} for a checkpoint or savepoint now, optionally overriding
 * the job's snapshot options for it.
 */
@Command(name = "trigger",
        description = "Asks for a checkpoint (or a savepoint) of a job now: produces a TriggerRequest. Prints the "
                + "request id, which the coordinator's RequestOutcome on <prefix>journal carries; --wait waits for "
                + "the outcome. Options left out take the job's. (A savepoint with the job's options and a wait: "
                + "cairn savepoint --job JOB.)")
final class TriggerCommand implements Callable<Integer> {

    /** Flink's {@code checkpointType} of a checkpoint trigger: CONFIGURED takes the job's backup type. */
    enum CheckpointTypeFlag { CONFIGURED, FULL, INCREMENTAL }

    @Mixin
    RequestFlags flags;

    @Option(names = "--savepoint", description = "Take a savepoint (owned by you) instead of a checkpoint.")
    boolean savepoint;

    @Option(names = "--force", negatable = true,
            description = "--force ignores the job's --max-concurrent limit and minimum pause, --no-force does not; "
                    + "left out, Flink's default: checkpoints are not forced, savepoints are unless the job enables "
                    + "unaligned checkpoints.")
    Boolean force;

    @Option(names = "--checkpoint-type", paramLabel = "TYPE",
            description = "Checkpoints only: full (self-contained), incremental (may reuse files of earlier "
                    + "checkpoints) or configured (the job's --backup-type, the default).")
    CheckpointTypeFlag checkpointType;

    @Option(names = "--unaligned", negatable = true,
            description = "Checkpoints only: take this checkpoint unaligned (--unaligned) or aligned "
                    + "(--no-unaligned); default: as the job's --unaligned.")
    Boolean unaligned;

    @Option(names = "--aligned-timeout-ms", paramLabel = "MS",
            description = "Checkpoints only, with unaligned checkpoints: align for this long first, >= 0 "
                    + "(0 starts unaligned; default: the job's --aligned-timeout-ms).")
    Long alignedTimeoutMs;

    @Option(names = "--wait",
            description = "Wait for the checkpoint's outcome and print its path and id (exit code 0), or why it "
                    + "failed (1); without it the command returns once the request is sent.")
    boolean wait;

    @Mixin
    WaitFlags waiting;

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        if (wait) {
            waiting.check(problems);
        }
        return flags.send(request(), wait ? waiting.waitMs : 0, waiting.progress, problems);
    }

    /** The event the flags describe; {@link RequestFlags#send} checks it. */
    TriggerRequest request() {
        BackupType backup = checkpointType == null || checkpointType == CheckpointTypeFlag.CONFIGURED ? null
                : BackupType.valueOf(checkpointType.name());
        boolean overrides = backup != null || flags.format != null || unaligned != null || alignedTimeoutMs != null;
        return TriggerRequest.newBuilder()
                .setJobId(flags.jobId)
                .setRequestId(flags.requestIdOrNew())
                .setType(savepoint ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT)
                .setForce(force)
                .setTargetLocation(flags.target)
                .setRequester(CairnCli.REQUESTER)
                .setTimestampMs(flags.cli().nowMs())
                .setOptions(overrides ? RequestedOptions.newBuilder().setBackupType(backup)
                        .setSavepointFormat(flags.format).setUnalignedEnabled(unaligned)
                        .setAlignedTimeoutMs(alignedTimeoutMs).build() : null)
                .build();
    }
}
