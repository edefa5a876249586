package dev.cairn.coordinator.domain;

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
 */
public record InputLimits(int maxParallelism, int maxVertices, int maxSubtasksPerJob, int maxIdLength,
        int maxLocationLength, int maxMessageLength, int maxRetained, long maxDurationMs) {

    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9._-]+");

    /**
     * Flink's max parallelism, room for the largest jobs people run, ids and locations far longer than any
     * real one. Records that still grow too large for Kafka are refused when produced, not here.
     */
    public static final InputLimits DEFAULTS = new InputLimits(32_768, 10_000, 100_000, 256, 1_024, 16_384, 100,
            366L * 24 * 3600 * 1000);

    public InputLimits {
        if (maxParallelism < 1 || maxVertices < 1 || maxSubtasksPerJob < 1 || maxIdLength < 1
                || maxLocationLength < 1 || maxMessageLength < 1 || maxRetained < 1 || maxDurationMs < 1) {
            throw new IllegalArgumentException("every input limit must be at least 1: " + this);
        }
    }

    /** A problem with {@code value} of {@code field} as an id, or {@code null} when it is a valid id. */
    String checkId(String field, CharSequence value) {
        return named(field, idProblem(value));
    }

    /** A problem with an optional id ({@code null} is fine), or {@code null}. */
    String checkOptionalId(String field, CharSequence value) {
        return named(field, optionalIdProblem(value));
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
        if (value == null || value.toString().isBlank()) {
            return "is empty";
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            return "contains a control character";
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
     * storage base, a savepoint target), or {@code null}: a location within the bound, without control characters
     * and without a {@code ..} segment, so that a job's checkpoints stay under the location it names.
     */
    String targetProblem(CharSequence value) {
        String problem = locationProblem(value);
        if (problem != null || value == null) {
            return problem;
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            return "contains a control character";
        }
        for (String segment : value.toString().split("[/\\\\]", -1)) {
            if (segment.equals("..")) {
                return "has a '..' segment; name the folder itself";
            }
        }
        return null;
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
