package dev.cairn.coordinator.rest.routes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@code PATCH /jobs/{jobId}?mode=cancel}, Flink's job cancellation ({@code JobCancellationHeaders}): what the call
 * may say and what it asks of the coordinator. The query names at most {@code mode}, and only {@code cancel} (any
 * case; left out it is {@code cancel}, Flink's default); Flink's removed {@code stop} mode and anything else are
 * answered 400. The body is empty or {@code {}} (Flink's empty request body). The job is asked to become CANCELED
 * (a {@link JobStatusChange}): as in Flink the coordinator stops triggering, aborts the pending checkpoints and drops
 * the queued requests. A job that is FINISHED or FAILED is answered 409, as Flink answers it; a CANCELED one is
 * cancelled again, which changes nothing.
 */
final class JobCancellation {

    private JobCancellation() {
    }

    /**
     * Checks the query and the body of a cancellation.
     *
     * @throws ApiException 400 naming what is wrong
     */
    static void requireCancel(String rawQuery, String body) {
        if (rawQuery != null && !rawQuery.isEmpty()) {
            String mode = null;
            for (String parameter : rawQuery.split("&")) {
                int equals = parameter.indexOf('=');
                String name = decode(equals < 0 ? parameter : parameter.substring(0, equals));
                String value = equals < 0 ? "" : decode(parameter.substring(equals + 1));
                if (!name.equals("mode")) {
                    throw ApiException.badRequest("PATCH /jobs/{jobId} takes one query parameter, mode=cancel; "
                            + "unknown parameter '" + shown(name) + "'");
                }
                if (mode != null) {
                    throw ApiException.badRequest("mode is given more than once; give mode=cancel once");
                }
                mode = value;
            }
            requireCancelMode(mode);
        }
        if (body != null && !body.isBlank()) {
            JsonNode tree;
            try {
                tree = Json.MAPPER.readTree(body);
            } catch (IOException e) {
                tree = null;
            }
            if (tree == null || !tree.isObject() || !tree.isEmpty()) {
                throw ApiException.badRequest("PATCH /jobs/{jobId}?mode=cancel takes no body (or {}, Flink's empty "
                        + "body), not " + shown(body));
            }
        }
    }

    private static void requireCancelMode(String mode) {
        String normalized = mode.toLowerCase(Locale.ROOT);
        if (normalized.equals("stop")) {
            throw ApiException.badRequest("mode=stop is not supported (Flink removed it too): to stop the job with a "
                    + "savepoint use POST /jobs/{jobId}/stop; to cancel it, mode=cancel");
        }
        if (!normalized.equals("cancel")) {
            throw ApiException.badRequest("mode must be cancel (Flink's termination mode), not '" + shown(mode)
                    + "'");
        }
    }

    /**
     * Refuses to cancel a job that already ended otherwise.
     *
     * @param status the job's status, as its view names it ({@code state} of {@code GET /jobs/{jobId}})
     * @throws ApiException 409 for a FINISHED or FAILED job
     */
    static void requireCancellable(String jobId, String status) {
        if (JobStatus.FINISHED.name().equals(status) || JobStatus.FAILED.name().equals(status)) {
            throw new ApiException(409, "job '" + jobId + "' is " + status + " already, so it cannot be cancelled");
        }
    }

    /** The status of the job in the view its owner answered ({@code state}); {@code null} when it names none. */
    static String statusOfView(byte[] jobView) {
        try {
            JsonNode state = Json.MAPPER.readTree(jobView).path("state");
            return state.isTextual() ? state.asText() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The request a cancellation produces: the job becomes CANCELED. */
    static JobStatusChange change(String jobId, long nowMs) {
        return JobStatusChange.newBuilder().setJobId(jobId).setStatus(JobStatus.CANCELED).setTimestampMs(nowMs)
                .build();
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("malformed percent-encoding in the query: '" + shown(raw) + "'");
        }
    }

    private static String shown(String text) {
        String clean = text.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return clean.length() > 60 ? clean.substring(0, 57) + "..." : clean;
    }
}
