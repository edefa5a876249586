package dev.cairn.coordinator.rest.bodies;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputChecks;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.events.RemoveJob;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The optional body of {@code DELETE /jobs/{jobId}}: {@code {"requestId": "..."}} chooses the removal's request id (a
 * retry with the same id removes the job once); no body, or {@code {}}, makes one up. A body is answered 400 with every
 * problem at once, as the other bodies are: what Jackson refuses (not an object, a wrong type, an unknown field) and
 * what the coordinator's input checks would refuse ({@link InputChecks}: the ids within bounds).
 */
public final class RemoveBody {

    private RemoveBody() {
    }

    /** {@code {"requestId": "..."}}, the field optional. */
    record Remove(String requestId) {
        static final String EXAMPLE = "{\"requestId\": \"remove-orders-1\"}";
    }

    /**
     * The removal a body asks for.
     *
     * @param text the body; empty or blank: no body
     * @param ids makes up a request id when the body names none
     * @throws ApiException 400 naming everything that is wrong with it
     */
    public static RemoveJob remove(String text, String jobId, long nowMs, Supplier<String> ids, InputLimits limits) {
        BodyReader.Bound<Remove> bound = BodyReader.read(text == null || text.isBlank() ? "{}" : text, Remove.class,
                Remove.EXAMPLE);
        List<String> problems = new ArrayList<>(bound.problems().values());
        String requestId = bound.value().requestId();
        RemoveJob remove = RemoveJob.newBuilder().setJobId(jobId)
                .setRequestId(requestId != null ? requestId : ids.get())
                .setRequester(RestoreBodies.REQUESTER).setTimestampMs(nowMs).build();
        if (problems.isEmpty()) {
            InputChecks.problem(new Command.Remove(remove), limits).ifPresent(problems::add);
        }
        BodyReader.requireNone(problems);
        return remove;
    }
}
