package dev.cairn.coordinator.rest.bodies;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.contract.SpecProblem;
import dev.cairn.core.contract.TriggerRequests;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.TriggerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The body of a trigger endpoint, as Jackson binds it: {@link CheckpointBody} ({@code POST
 * /jobs/{jobId}/checkpoints}), {@link SavepointBody} ({@code POST /jobs/{jobId}/savepoints}) and {@link StopBody}
 * ({@code POST /jobs/{jobId}/stop}), each with Flink's field names. What a valid request is, is the coordinator's
 * rule ({@link TriggerRequests#problems}); a body is answered with every problem at once, each named by its JSON
 * field. An empty body is an empty object: every field may be left out.
 */
sealed interface TriggerBody permits CheckpointBody, SavepointBody, StopBody {

    /** The requester recorded in every TriggerRequest this API produces. */
    String REQUESTER = "rest";
    /** A body every trigger endpoint accepts, shown when a body is not a JSON object. */
    String EXAMPLE = "{\"triggerId\": \"nightly-1\"}";

    /**
     * The request a body of {@code type} asks for, stamped {@code nowMs}, with the body's request id or else
     * one from {@code ids}.
     *
     * @throws ApiException 400 naming everything that is malformed, unknown, of the wrong type, or that the
     *     coordinator would refuse
     */
    static TriggerRequest read(String text, Class<? extends TriggerBody> type, String jobId, long nowMs,
            Supplier<String> ids, InputLimits limits) {
        BodyReader.Bound<? extends TriggerBody> bound = BodyReader.read(text == null || text.isBlank() ? "{}" : text,
                type, EXAMPLE);
        TriggerBody body = bound.value();
        List<String> problems = new ArrayList<>(bound.problems().values());
        problems.addAll(body.shapeProblems());
        String requestId = body.givenRequestId();
        TriggerRequest request = body.toRequest(jobId, requestId != null ? requestId : ids.get(), nowMs);
        for (SpecProblem problem : TriggerRequests.problems(request, limits)) {
            String field = body.field(problem.path());
            if (!bound.problems().containsKey(field)) {
                problems.add(field + " " + problem.message());
            }
        }
        BodyReader.requireNone(problems);
        return request;
    }

    /** Cairn's name of the request's id, {@code null} when the body leaves it out. */
    String requestId();

    /** Flink's name of the request's id, {@code null} when the body leaves it out. */
    String triggerId();

    /** The request's id as the body gives it ({@code requestId}, or Flink's {@code triggerId}), else null. */
    default String givenRequestId() {
        return requestId() != null ? requestId() : triggerId();
    }

    /** The event this body asks for, with {@code requestId}. */
    TriggerRequest toRequest(String jobId, String requestId, long nowMs);

    /** What is wrong with the body itself, beside the request's rules (fields that contradict each other). */
    List<String> shapeProblems();

    /**
     * The JSON field of a path of {@link TriggerRequests}' problems: here with the names of Flink's savepoint and
     * stop bodies, the request id named as the body names it.
     */
    default String field(String path) {
        return field(path, SAVEPOINT_NAMES, requestId() != null ? "requestId" : "triggerId");
    }

    /**
     * A problem when a body gives a field under both of its names ({@code flinkName}, Flink's, and
     * {@code cairnName}), whatever the values.
     *
     * @param what what the field says, in words
     */
    static List<String> bothNames(String flinkName, Object flinkValue, String cairnName, Object cairnValue,
            String what) {
        return flinkValue != null && cairnValue != null
                ? List.of(flinkName + " and " + cairnName + " both say " + what + "; give only one (" + flinkName
                        + " is Flink's name)")
                : List.of();
    }

    /** A problem when the body names two different request ids. */
    default List<String> requestIdProblems() {
        String requestId = requestId();
        String triggerId = triggerId();
        return requestId != null && triggerId != null && !requestId.equals(triggerId)
                ? List.of("requestId and triggerId name the same thing (the request's id); give only one")
                : List.of();
    }

    /** The names of Flink's savepoint and stop bodies for the request's fields. */
    Map<String, String> SAVEPOINT_NAMES = Map.of("targetLocation", "targetDirectory",
            "options.savepointFormat", "formatType");

    /** A savepoint with Flink's default force, the given target and format, then {@code action}. */
    static TriggerRequest savepoint(String jobId, String requestId, long nowMs, String target, SavepointFormat format,
            PostCheckpointAction action) {
        return TriggerRequest.newBuilder().setJobId(jobId).setRequestId(requestId).setType(CheckpointType.SAVEPOINT)
                .setForce(null).setTargetLocation(target).setRequester(REQUESTER).setTimestampMs(nowMs)
                .setPostCheckpointAction(action)
                .setOptions(format == null ? null : RequestedOptions.newBuilder().setSavepointFormat(format).build())
                .build();
    }

    /** The JSON field of a path: renamed as {@code names} says, the request id as the body names it. */
    static String field(String path, Map<String, String> names, String requestIdField) {
        if (path.equals("requestId")) {
            return requestIdField;
        }
        return path.equals("jobId") ? "the job id in the path" : names.getOrDefault(path, path);
    }
}
