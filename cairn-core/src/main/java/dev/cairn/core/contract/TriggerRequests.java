package dev.cairn.core.contract;

import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a {@link TriggerRequest} (a checkpoint, a savepoint or a stop-with-savepoint), the one place they
 * are written: the coordinator checks a request with them, and every front end (REST, CLI) before it sends one.
 * Each problem names its field by path ({@code targetLocation}, {@code options.alignedTimeoutMs}, see
 * {@link SpecProblem}).
 *
 * <p>Two kinds: {@link #boundsProblems} (ids and locations within {@link InputLimits}), on which the coordinator
 * rejects the command, and {@link #optionProblems} (options that do not fit the kind of snapshot, Flink's
 * {@code CheckpointOptions} preconditions), on which it answers the request with a FAILED outcome.
 */
public final class TriggerRequests {

    private static final String CHECKPOINTS_ONLY_ALIGNED =
            "applies to checkpoints only (a savepoint is always aligned, as in Flink); leave it out";

    private TriggerRequests() {
    }

    /** Every problem of the request under the default {@link InputLimits}; empty when it is valid. */
    public static List<SpecProblem> problems(TriggerRequest request) {
        return problems(request, InputLimits.DEFAULTS);
    }

    /** Every problem of the request under {@code limits}; empty when it is valid. */
    public static List<SpecProblem> problems(TriggerRequest request, InputLimits limits) {
        List<SpecProblem> problems = boundsProblems(request, limits);
        problems.addAll(optionProblems(request));
        return problems;
    }

    /** The problems of the request's ids and locations: within {@code limits}, not blank where given. */
    public static List<SpecProblem> boundsProblems(TriggerRequest request, InputLimits limits) {
        List<SpecProblem> problems = new ArrayList<>();
        add(problems, "jobId", limits.idProblem(request.getJobId()));
        CharSequence requestId = request.getRequestId();
        add(problems, "requestId", requestId != null && requestId.toString().isBlank() ? "is empty"
                : limits.optionalIdProblem(requestId));
        add(problems, "requester", limits.optionalIdProblem(request.getRequester()));
        CharSequence target = request.getTargetLocation();
        add(problems, "targetLocation", target != null && target.toString().isBlank()
                ? "is empty (leave it out for the job's storage base location)" : limits.targetProblem(target));
        return problems;
    }

    /** The options that do not fit the kind of snapshot the request asks for, or are out of range. */
    public static List<SpecProblem> optionProblems(TriggerRequest request) {
        List<SpecProblem> problems = new ArrayList<>();
        boolean savepoint = request.getType() == CheckpointType.SAVEPOINT;
        if (!savepoint && SnapshotOptionsRules.postAction(request) != PostCheckpointAction.NONE) {
            problems.add(new SpecProblem("postCheckpointAction", request.getPostCheckpointAction()
                    + " (a stop) needs a SAVEPOINT request, not a CHECKPOINT"));
        }
        if (!savepoint && request.getTargetLocation() != null) {
            problems.add(new SpecProblem("targetLocation", "applies to savepoints only (a checkpoint is stored "
                    + "under the job's storage base location)"));
        }
        RequestedOptions options = request.getOptions();
        if (options != null) {
            fitProblems(options, savepoint, problems);
        }
        return problems;
    }

    private static void fitProblems(RequestedOptions options, boolean savepoint, List<SpecProblem> problems) {
        if (savepoint && options.getBackupType() != null) {
            problems.add(new SpecProblem("options.backupType", "applies to checkpoints only (a savepoint is always "
                    + "self-contained); choose a savepoint format instead"));
        }
        if (!savepoint && options.getSavepointFormat() != null) {
            problems.add(new SpecProblem("options.savepointFormat", "applies to savepoints only; choose a backup "
                    + "type (FULL or INCREMENTAL) for a checkpoint"));
        }
        if (savepoint && options.getUnalignedEnabled() != null) {
            problems.add(new SpecProblem("options.unalignedEnabled", CHECKPOINTS_ONLY_ALIGNED));
        }
        Long alignedTimeout = options.getAlignedTimeoutMs();
        if (alignedTimeout == null) {
            return;
        }
        if (savepoint) {
            problems.add(new SpecProblem("options.alignedTimeoutMs", CHECKPOINTS_ONLY_ALIGNED));
        } else if (alignedTimeout < 0) {
            problems.add(new SpecProblem("options.alignedTimeoutMs", "must be >= 0 but is " + alignedTimeout));
        } else if (Boolean.FALSE.equals(options.getUnalignedEnabled())) {
            problems.add(new SpecProblem("options.alignedTimeoutMs", "applies to unaligned checkpoints only (how "
                    + "long to align before switching to unaligned), but this request asks for an aligned one"));
        }
    }

    /** {@code a forced savepoint to s3://bucket/sp-1}, {@code a checkpoint (INCREMENTAL, unaligned)}: for people. */
    public static String describe(TriggerRequest request) {
        boolean savepoint = request.getType() == CheckpointType.SAVEPOINT;
        String kind = switch (SnapshotOptionsRules.postAction(request)) {
            case SUSPEND -> "stop-with-savepoint (the tasks stop where they are; the job is FINISHED when it "
                    + "completes)";
            case TERMINATE -> "stop-with-savepoint (the tasks drain their input; the job is FINISHED when it "
                    + "completes)";
            default -> savepoint ? "savepoint" : "checkpoint";
        };
        String forced = request.getForce() == null ? "a " : request.getForce() ? "a forced " : "an unforced ";
        String where = request.getTargetLocation() != null ? " to " + request.getTargetLocation()
                : savepoint ? " to the job's storage location" : "";
        return forced + kind + where + describe(request.getOptions());
    }

    private static String describe(RequestedOptions options) {
        if (options == null) {
            return "";
        }
        List<String> shown = new ArrayList<>();
        if (options.getBackupType() != null) {
            shown.add(options.getBackupType().name());
        }
        if (options.getSavepointFormat() != null) {
            shown.add(options.getSavepointFormat() + " format");
        }
        if (options.getUnalignedEnabled() != null) {
            shown.add(options.getUnalignedEnabled() ? "unaligned" : "aligned");
        }
        if (options.getAlignedTimeoutMs() != null) {
            shown.add("aligned timeout " + options.getAlignedTimeoutMs() + " ms");
        }
        return " (" + String.join(", ", shown) + ")";
    }

    private static void add(List<SpecProblem> problems, String path, String problem) {
        if (problem != null) {
            problems.add(new SpecProblem(path, problem));
        }
    }
}
