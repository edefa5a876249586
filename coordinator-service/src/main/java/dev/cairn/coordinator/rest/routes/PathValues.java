package dev.cairn.coordinator.rest.routes;

import dev.cairn.coordinator.rest.ApiException;
import dev.cairn.core.contract.InputLimits;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the API reads from a path and writes into one: its segments, percent-decoded, a checkpoint id and a request id
 * as the coordinator accepts them (400 naming the segment otherwise), and the request ids it makes up.
 */
final class PathValues {

    private PathValues() {
    }

    /** A checkpoint id from the path; 400 when it is not a number. */
    static long checkpointId(String segment) {
        try {
            return Long.parseLong(segment);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("checkpoint id must be a number (or 'latest-completed'), not '"
                    + segment + "'");
        }
    }

    /** A request id from the path: what the coordinator accepts as one (no control characters, bounded length). */
    static String requestId(String segment) {
        if (segment.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest("request id must not contain control characters");
        }
        int max = InputLimits.DEFAULTS.maxIdLength();
        if (segment.length() > max) {
            throw ApiException.badRequest("request id is " + segment.length() + " characters long, more than the "
                    + "limit of " + max + ", so no request has it");
        }
        return segment;
    }

    /**
     * A request id for a request whose body names none: 32 hexadecimal digits, the form of Flink's trigger ids, so
     * that a Flink REST client reads the answer's {@code request-id} as a {@code TriggerId}.
     */
    static String newRequestId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Path segments, percent-decoded one by one (so that an encoded '/' stays inside its segment). */
    static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String raw : rawPath.split("/")) {
            if (raw.isEmpty()) {
                continue;
            }
            try {
                segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("malformed percent-encoding in path segment '" + raw + "'");
            }
        }
        return segments;
    }

    static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
