package dev.cairn.cli;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.TaskRescale;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns the {@code --parallelism TASK=PARALLELISM} flags of {@code cairn rescale} into the tasks of a
 * {@code RescaleJob}, in the order given, collecting a message naming the flag and its value for every malformed
 * one: no {@code =}, an empty task, a parallelism that is not a whole number from 1 to the coordinator's limit, a task
 * named twice, or no flag at all. Whether the job has the task, and whether the parallelism is within the task's max
 * parallelism, is the coordinator's to say.
 */
final class ParallelismFlags {

    static final String FLAG = "--parallelism";
    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]{1,10}");

    private ParallelismFlags() {
    }

    /** The tasks of the well-formed flags; every problem is added to {@code problems}. */
    static List<TaskRescale> tasks(List<String> values, List<String> problems) {
        List<TaskRescale> tasks = new ArrayList<>();
        if (values == null || values.isEmpty()) {
            problems.add(FLAG + " is missing: give the new parallelism of at least one task, e.g. " + FLAG
                    + " count=3");
            return tasks;
        }
        Set<String> named = new LinkedHashSet<>();
        for (String value : values) {
            TaskRescale task = parse(value, problems);
            if (task != null && !named.add(task.getTaskId())) {
                problems.add(FLAG + " '" + value + "': task '" + task.getTaskId() + "' is named twice; give each "
                        + "task once");
            } else if (task != null) {
                tasks.add(task);
            }
        }
        return tasks;
    }

    /** One flag's task, or {@code null} (with a problem added) when it is malformed. */
    private static TaskRescale parse(String value, List<String> problems) {
        String flag = FLAG + " '" + value + "': ";
        int equals = value.lastIndexOf('=');
        if (equals < 0) {
            problems.add(flag + "expected TASK=PARALLELISM, e.g. count=3");
            return null;
        }
        String taskId = value.substring(0, equals).strip();
        String count = value.substring(equals + 1).strip();
        int max = InputLimits.DEFAULTS.maxParallelism();
        if (taskId.isEmpty()) {
            problems.add(flag + "the task is empty; expected TASK=PARALLELISM, e.g. count=3");
        } else if (!WHOLE.matcher(count).matches()) {
            problems.add(flag + "the parallelism must be a whole number, not '" + count + "'");
        } else if (Long.parseLong(count) < 1 || Long.parseLong(count) > max) {
            problems.add(flag + "the parallelism must be from 1 to " + max + ", not " + Long.parseLong(count));
        } else {
            return new TaskRescale(taskId, Integer.parseInt(count));
        }
        return null;
    }

    /** {@code count x3, sink x1}. */
    static String describe(List<TaskRescale> tasks) {
        return tasks.stream().map(t -> t.getTaskId() + " x" + t.getParallelism()).collect(Collectors.joining(", "));
    }
}
