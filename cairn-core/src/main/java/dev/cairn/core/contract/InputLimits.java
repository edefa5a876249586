package dev.cairn.core.contract;

import dev.cairn.core.events.BoundedText;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Upper bounds on everything a client controls, checked before the coordinator allocates anything sized
 * by it: a job spec, a trigger request, a task's messages. A record over a bound is rejected with a
 * reason that names the field, the value and the bound; nothing is allocated for it.
 *
 * @param maxParallelism subtasks of one vertex (Flink's upper bound for max parallelism: 32,768)
 * @param maxVertices vertices of one job
 * @param maxSubtasksPerJob subtasks of all vertices of one job together
 * @param maxIdLength characters of a job, task, attempt, request or requester id
 * @param maxLocationLength characters of a storage location, savepoint target or state handle location
 * @param maxMessageLength characters of a free-text message (a decline's reason)
 * @param maxRetained completed checkpoints a job may ask to retain
 * @param maxDurationMs the longest interval, timeout or minimum pause a job may ask for (so that no
 *     deadline computed from it overflows)
 * @param locationSchemes the URI schemes a storage base or savepoint target may have, in lower case (a location
 *     is where tasks are told to write: {@code http://169.254.169.254/} or {@code javascript:} never is)
 * @param requestFreshnessMs how far a request's own time (its {@code timestampMs}, which its signature covers) may be
 *     from when the broker appended it; a request further off is refused as stale (each {@code RequestAdmitted}
 *     records the window it was admitted in, so replay does not depend on it)
 */
public record InputLimits(int maxParallelism, int maxVertices, int maxSubtasksPerJob, int maxIdLength,
        int maxLocationLength, int maxMessageLength, int maxRetained, long maxDurationMs, Set<String> locationSchemes,
        long requestFreshnessMs) {

    /** Five minutes, as much clock skew as Kerberos tolerates by default. */
    public static final long DEFAULT_REQUEST_FRESHNESS_MS = 300_000;
    /** The narrowest freshness window: a second. */
    public static final long MIN_REQUEST_FRESHNESS_MS = 1_000;
    /** The widest freshness window: a day (the keys of a job's requests of two windows are kept). */
    public static final long MAX_REQUEST_FRESHNESS_MS = 86_400_000;

    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");
    private static final int QUOTED_SCHEME_CHARS = 32;

    /**
     * The file systems Flink writes checkpoints to: the local or mounted file system, S3, Google Cloud Storage,
     * HDFS, Azure and Alibaba OSS.
     */
    public static final Set<String> DEFAULT_LOCATION_SCHEMES = Set.of("file", "s3", "s3a", "s3p", "gs", "hdfs",
            "viewfs", "abfs", "abfss", "wasb", "wasbs", "oss");

    /**
     * Flink's max parallelism, room for the largest jobs people run, ids and locations far longer than any
     * real one. Records that still grow too large for Kafka are refused when produced, not here.
     */
    public static final InputLimits DEFAULTS = new InputLimits(32_768, 10_000, 100_000, 256, 1_024, 16_384, 100,
            366L * 24 * 3600 * 1000, DEFAULT_LOCATION_SCHEMES, DEFAULT_REQUEST_FRESHNESS_MS);

    public InputLimits {
        if (maxParallelism < 1 || maxVertices < 1 || maxSubtasksPerJob < 1 || maxIdLength < 1
                || maxLocationLength < 1 || maxMessageLength < 1 || maxRetained < 1 || maxDurationMs < 1) {
            throw new IllegalArgumentException("every input limit must be at least 1: " + this);
        }
        if (requestFreshnessMs < MIN_REQUEST_FRESHNESS_MS || requestFreshnessMs > MAX_REQUEST_FRESHNESS_MS) {
            throw new IllegalArgumentException("the request freshness window must be between "
                    + MIN_REQUEST_FRESHNESS_MS + " and " + MAX_REQUEST_FRESHNESS_MS + " ms, was " + requestFreshnessMs);
        }
        locationSchemes = Set.copyOf(schemes(locationSchemes));
    }

    /** These limits, allowing locations of {@code schemes} only. */
    public InputLimits withLocationSchemes(Collection<String> schemes) {
        return new InputLimits(maxParallelism, maxVertices, maxSubtasksPerJob, maxIdLength, maxLocationLength,
                maxMessageLength, maxRetained, maxDurationMs, Set.copyOf(schemes), requestFreshnessMs);
    }

    /** These limits, with a request freshness window of {@code windowMs}. */
    public InputLimits withRequestFreshnessMs(long windowMs) {
        return new InputLimits(maxParallelism, maxVertices, maxSubtasksPerJob, maxIdLength, maxLocationLength,
                maxMessageLength, maxRetained, maxDurationMs, locationSchemes, windowMs);
    }

    /**
     * {@code schemes} in lower case, each checked to be a URI scheme (RFC 3986: a letter, then letters, digits,
     * '+', '-' or '.').
     *
     * @throws IllegalArgumentException when the collection is empty or a scheme is not a scheme
     */
    private static Set<String> schemes(Collection<String> schemes) {
        if (schemes == null || schemes.isEmpty()) {
            throw new IllegalArgumentException("at least one location scheme must be allowed");
        }
        Set<String> lower = new TreeSet<>();
        for (String scheme : schemes) {
            String candidate = scheme == null ? "" : scheme.strip().toLowerCase(Locale.ROOT);
            if (!SCHEME.matcher(candidate).matches()) {
                throw new IllegalArgumentException("'" + BoundedText.of(scheme, QUOTED_SCHEME_CHARS) + "' is not a URI "
                        + "scheme: a letter, then letters, digits, '+', '-' or '.' (e.g. file, s3, hdfs)");
            }
            lower.add(candidate);
        }
        return lower;
    }

    /** A problem with {@code value} of {@code field} as an id, or {@code null} when it is a valid id. */
    String checkId(String field, CharSequence value) {
        return named(field, idProblem(value));
    }

    /** A problem with a location ({@code null} is fine), or {@code null}. */
    String checkLocation(String field, CharSequence value) {
        return named(field, locationProblem(value));
    }

    /** A problem with a free-text message ({@code null} is fine), or {@code null}. */
    String checkMessage(String field, CharSequence value) {
        return value == null ? null : named(field, lengthProblem(value, maxMessageLength));
    }

    /** A problem with a subtask index, or {@code null} when it lies in {@code [0, maxParallelism)}. */
    String checkSubtaskIndex(int subtaskIndex) {
        if (subtaskIndex < 0 || subtaskIndex >= maxParallelism) {
            return "subtask index must be in [0, " + maxParallelism + ") but is " + subtaskIndex;
        }
        return null;
    }

    /** What is wrong with {@code value} as an id ({@code "is empty"}, ...), or {@code null} when it is valid. */
    String idProblem(CharSequence value) {
        int length = value == null ? 0 : value.length();
        int firstVisible = 0;
        while (firstVisible < length && Character.isWhitespace(value.charAt(firstVisible))) {
            firstVisible++;
        }
        if (firstVisible == length) {
            return "is empty";
        }
        for (int i = 0; i < length; i++) {
            if (Character.isISOControl(value.charAt(i))) {
                return "contains a control character";
            }
        }
        return lengthProblem(value, maxIdLength);
    }

    /** What is wrong with an optional id ({@code null} is fine), or {@code null}. */
    String optionalIdProblem(CharSequence value) {
        return value == null ? null : lengthProblem(value, maxIdLength);
    }

    /** What is wrong with a location ({@code null} is fine), or {@code null}. */
    String locationProblem(CharSequence value) {
        return value == null ? null : lengthProblem(value, maxLocationLength);
    }

    /**
     * What is wrong with a location the coordinator builds checkpoint paths from or sends tasks to write to (a
     * storage base, a savepoint target), or {@code null}: an absolute URI within the bound, of one of the
     * {@link #locationSchemes}, without control characters and without a {@code ..} segment (written or
     * percent-encoded), so that a job's checkpoints stay under the location it names.
     */
    String targetProblem(CharSequence value) {
        String problem = locationProblem(value);
        if (problem != null || value == null) {
            return problem;
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            return "contains a control character";
        }
        URI uri;
        try {
            uri = new URI(value.toString());
        } catch (URISyntaxException e) {
            return "is not a URI (" + e.getReason() + " at index " + e.getIndex() + "); write e.g. "
                    + "file:///checkpoints or s3://bucket/checkpoints";
        }
        if (!uri.isAbsolute() || uri.isOpaque()) {
            return "is not an absolute URI with a scheme and a path; write e.g. file:///checkpoints or "
                    + "s3://bucket/checkpoints";
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!locationSchemes.contains(scheme)) {
            return "has the scheme '" + BoundedText.of(scheme, QUOTED_SCHEME_CHARS) + "', which is not allowed; "
                    + "allowed: " + String.join(", ", new TreeSet<>(locationSchemes));
        }
        return hasDotDotSegment(value.toString()) || hasDotDotSegment(uri.getPath())
                ? "has a '..' segment; name the folder itself" : null;
    }

    private static boolean hasDotDotSegment(String path) {
        if (path == null) {
            return false;
        }
        for (String segment : path.split("[/\\\\]", -1)) {
            if (segment.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /**
     * What is wrong with a job id, or {@code null}: an id ({@link #idProblem}) of letters, digits, '.', '_' and
     * '-' only, and not '.' or '..', since it names the folder of the job's checkpoints.
     */
    String jobIdProblem(CharSequence value) {
        String problem = idProblem(value);
        if (problem != null) {
            return problem;
        }
        String id = value.toString();
        if (!JOB_ID.matcher(id).matches()) {
            return "may hold only letters, digits, '.', '_' and '-' (it names the folder of the job's checkpoints)";
        }
        return id.equals(".") || id.equals("..") ? "may not be '.' or '..'" : null;
    }

    private static String named(String field, String problem) {
        return problem == null ? null : field + " " + problem;
    }

    private static String lengthProblem(CharSequence value, int max) {
        if (value.length() > max) {
            return "is " + value.length() + " characters long, more than the limit of " + max;
        }
        return null;
    }
}
