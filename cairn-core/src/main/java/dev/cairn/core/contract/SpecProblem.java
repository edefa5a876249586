package dev.cairn.core.contract;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One thing wrong with a request (a job spec, a trigger request), as the coordinator's rules see it.
 *
 * <p>The path names the field in the event's own terms: {@code jobId}, {@code config.intervalMs},
 * {@code tasks[2].parallelism}, {@code participants[0]}, {@code options.alignedTimeoutMs}; {@code tasks} for a
 * rule over the whole list, {@code tasks[*].triggered} for a rule over that field of every task. The message
 * reads after the field's name, whatever a front end calls it: {@code "must be in [1, 32768] but is 0"}.
 *
 * @param path the field, as above
 * @param message what is wrong with it, starting lower-case, without the field's name
 */
public record SpecProblem(String path, String message) {

    /** At most this many problems are spelled out in one {@link #describe} text; the rest are counted. */
    public static final int MAX_DESCRIBED = 10;

    /** {@code "tasks[2].parallelism must be in [1, 32768] but is 0"}. */
    @Override
    public String toString() {
        return path + " " + message;
    }

    /**
     * The problems as one text, {@code "; "}-separated, each named by {@code name} (a front end's name of the
     * path); at most {@link #MAX_DESCRIBED} of them, then how many more there are.
     */
    public static String describe(List<SpecProblem> problems, Function<String, String> name) {
        String shown = problems.stream().limit(MAX_DESCRIBED).map(p -> name.apply(p.path()) + " " + p.message())
                .collect(Collectors.joining("; "));
        int more = problems.size() - MAX_DESCRIBED;
        return more > 0 ? shown + "; and " + more + " more" : shown;
    }

    /** The index in a path's first segment, like 2 in {@code tasks[2].parallelism}; -1 when it has none. */
    public static int index(String path) {
        int open = path.indexOf('[');
        int close = path.indexOf(']');
        if (open < 0 || close < open + 2 || !path.substring(open + 1, close).chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(path.substring(open + 1, close));
    }

    /** A path without its indexes, like {@code tasks[].parallelism} for {@code tasks[2].parallelism}. */
    public static String shape(String path) {
        return path.replaceAll("\\[[0-9]+]", "[]");
    }
}
