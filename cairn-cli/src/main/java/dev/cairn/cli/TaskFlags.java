package dev.cairn.cli;

import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * Turns {@code --task TASK:PARALLELISM}, {@code --task-roles TASK:ROLE[,ROLE...]} and
 * {@code --max-parallelism TASK:MAX_PARALLELISM} into the job's vertices, collecting a message naming the flag and its
 * value for every malformed one; the vertices' rules are the coordinator's ({@code JobSpecs.problems}).
 */
final class TaskFlags {

    /** The roles of a task in a checkpoint; a task without {@code --task-roles} has all three. */
    enum Role {
        /** Receives the trigger (Flink: tasks to trigger, usually the sources). */
        TRIGGER("trigger"),
        /** Must acknowledge before the checkpoint completes (Flink: tasks to wait for). */
        ACK("ack"),
        /** Is told when a checkpoint completes or aborts (Flink: tasks to commit to). */
        NOTIFY("notify");

        final String flagName;

        Role(String flagName) {
            this.flagName = flagName;
        }

        static String names() {
            return EnumSet.allOf(Role.class).stream().map(r -> r.flagName).collect(Collectors.joining(", "));
        }
    }

    static final String MAX_FLAG = "--max-parallelism";
    private static final String WHOLE = "[+-]?[0-9]{1,10}";

    private TaskFlags() {
    }

    /**
     * The vertices of the well-formed {@code --task} flags, in their order, each with the flag's value.
     *
     * @param vertices the job's vertices
     * @param values the {@code --task} value each vertex was read from, by index
     * @param maxValues the {@code --max-parallelism} value of each vertex, by index; {@code null} where none was given
     */
    record Tasks(List<TaskVertex> vertices, List<String> values, List<String> maxValues) {
    }

    /**
     * The vertices, in the order of the {@code --task} flags; a malformed flag is added to {@code problems}. What a
     * valid plan is (ids once, parallelism in range, someone triggered) is the coordinator's rule, checked on the
     * spec.
     *
     * @param tasks the values of {@code --task}
     * @param roles the values of {@code --task-roles}
     * @param maxParallelism the values of {@code --max-parallelism}; a task without one leaves its max parallelism to
     *     the coordinator (the one it has, or Flink's default for a new task)
     */
    static Tasks vertices(List<String> tasks, List<String> roles, List<String> maxParallelism,
                          List<String> problems) {
        List<String> values = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String task : tasks) {
            parseTask(task, problems, (id, count) -> {
                values.add(task);
                ids.add(id);
                counts.add(count);
            });
        }
        Map<String, Set<Role>> rolesByTask = new LinkedHashMap<>();
        for (String role : roles) {
            parseRoles(role, new LinkedHashSet<>(ids), rolesByTask, problems);
        }
        Map<String, MaxParallelism> maxByTask = new LinkedHashMap<>();
        for (String max : maxParallelism) {
            parseMaxParallelism(max, new LinkedHashSet<>(ids), maxByTask, problems);
        }
        List<TaskVertex> vertices = new ArrayList<>();
        List<String> maxValues = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            Set<Role> of = rolesByTask.getOrDefault(ids.get(i), EnumSet.allOf(Role.class));
            MaxParallelism max = maxByTask.get(ids.get(i));
            vertices.add(TaskVertex.newBuilder().setTaskId(ids.get(i)).setParallelism(counts.get(i))
                    .setMaxParallelism(max == null ? null : max.value())
                    .setTriggered(of.contains(Role.TRIGGER)).setAcknowledges(of.contains(Role.ACK))
                    .setNotified(of.contains(Role.NOTIFY)).build());
            maxValues.add(max == null ? null : max.flagValue());
        }
        return new Tasks(vertices, values, maxValues);
    }

    /** A task's well-formed {@code --max-parallelism}: the number, and the flag's value it was read from. */
    private record MaxParallelism(int value, String flagValue) {
    }

    private static void parseTask(String value, List<String> problems, BiConsumer<String, Integer> task) {
        String flag = "--task '" + value + "': ";
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(flag + "expected TASK:PARALLELISM, e.g. map:2");
            return;
        }
        String count = value.substring(colon + 1).strip();
        if (!count.matches(WHOLE)) {
            problems.add(flag + "parallelism must be a whole number");
            return;
        }
        long parsed = Long.parseLong(count);
        task.accept(value.substring(0, colon).strip(), (int) Math.max(Integer.MIN_VALUE,
                Math.min(Integer.MAX_VALUE, parsed)));
    }

    private static void parseRoles(String value, Set<String> declared, Map<String, Set<Role>> rolesByTask,
                                   List<String> problems) {
        String flag = "--task-roles '" + value + "': ";
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(flag + "expected TASK:ROLE[,ROLE...] with roles " + Role.names() + ", e.g. sink:ack,notify");
            return;
        }
        String taskId = value.substring(0, colon).strip();
        if (!declared.contains(taskId)) {
            problems.add(flag + "no --task declares a task '" + taskId + "'"
                    + (declared.isEmpty() ? "" : " (tasks: " + String.join(", ", declared) + ")"));
            return;
        }
        if (rolesByTask.containsKey(taskId)) {
            problems.add(flag + "the roles of task '" + taskId
                    + "' are given twice; list them all in one --task-roles");
            return;
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String name : value.substring(colon + 1).split(",", -1)) {
            Role role = role(name.strip());
            if (role == null) {
                problems.add(flag + (name.isBlank() ? "a role is empty" : "unknown role '" + name.strip() + "'")
                        + " (roles: " + Role.names() + ")");
                return;
            }
            roles.add(role);
        }
        rolesByTask.put(taskId, roles);
    }

    /**
     * One {@code --max-parallelism}: a task some {@code --task} declares, given once, and a whole number; whether it is
     * within bounds and not below the task's parallelism is the coordinator's rule, checked on the spec.
     */
    private static void parseMaxParallelism(String value, Set<String> declared, Map<String, MaxParallelism> maxByTask,
                                            List<String> problems) {
        String flag = MAX_FLAG + " '" + value + "': ";
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(flag + "expected TASK:MAX_PARALLELISM, e.g. count:256");
            return;
        }
        String taskId = value.substring(0, colon).strip();
        String max = value.substring(colon + 1).strip();
        if (!declared.contains(taskId)) {
            problems.add(flag + "no --task declares a task '" + taskId + "'"
                    + (declared.isEmpty() ? "" : " (tasks: " + String.join(", ", declared) + ")"));
        } else if (maxByTask.containsKey(taskId)) {
            problems.add(flag + "the max parallelism of task '" + taskId + "' is given twice; give it once");
        } else if (!max.matches(WHOLE)) {
            problems.add(flag + "max parallelism must be a whole number, not '" + max + "'");
        } else if (Long.parseLong(max) != (int) Long.parseLong(max)) {
            problems.add(flag + "max parallelism must be between 1 and " + KeyGroupRanges.UPPER_BOUND_MAX_PARALLELISM
                    + ", not " + Long.parseLong(max));
        } else {
            maxByTask.put(taskId, new MaxParallelism(Integer.parseInt(max), value));
        }
    }

    private static Role role(String name) {
        for (Role role : Role.values()) {
            if (role.flagName.equals(name.toLowerCase(Locale.ROOT))) {
                return role;
            }
        }
        return null;
    }

    /**
     * {@code source x1, map x2 (max parallelism 256), sink x1 (ack, notify)}: a max parallelism is shown where the
     * flags set it, roles where they are not all three.
     */
    static String describe(List<TaskVertex> vertices) {
        return vertices.stream().map(v -> {
            List<String> notes = new ArrayList<>();
            if (v.getMaxParallelism() != null) {
                notes.add("max parallelism " + v.getMaxParallelism());
            }
            List<String> roles = roles(v);
            if (roles.size() != Role.values().length) {
                notes.add(String.join(", ", roles));
            }
            String shown = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
            return v.getTaskId() + " x" + v.getParallelism() + shown;
        }).collect(Collectors.joining(", "));
    }

    /** The flag names of the vertex's roles, in the order of {@link Role}. */
    private static List<String> roles(TaskVertex v) {
        List<String> roles = new ArrayList<>();
        if (v.getTriggered()) {
            roles.add(Role.TRIGGER.flagName);
        }
        if (v.getAcknowledges()) {
            roles.add(Role.ACK.flagName);
        }
        if (v.getNotified()) {
            roles.add(Role.NOTIFY.flagName);
        }
        return roles;
    }
}
