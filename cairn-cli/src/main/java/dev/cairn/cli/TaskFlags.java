package dev.cairn.cli;

import dev.cairn.events.TaskVertex;
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
 * Turns {@code --task TASK:PARALLELISM} and {@code --task-roles TASK:ROLE[,ROLE...]} into the job's
 * vertices, collecting a message naming the flag and its value for every malformed one; the vertices' rules are
 * the coordinator's ({@code JobSpecs.problems}).
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

    private TaskFlags() {
    }

    /**
     * The vertices of the well-formed {@code --task} flags, in their order, each with the flag's value.
     *
     * @param vertices the job's vertices
     * @param values the {@code --task} value each vertex was read from, by index
     */
    record Tasks(List<TaskVertex> vertices, List<String> values) {
    }

    /**
     * The vertices, in the order of the {@code --task} flags; a malformed flag is added to {@code problems}. What a
     * valid plan is (ids once, parallelism in range, someone triggered) is the coordinator's rule, checked on the
     * spec.
     *
     * @param tasks the values of {@code --task}
     * @param roles the values of {@code --task-roles}
     */
    static Tasks vertices(List<String> tasks, List<String> roles, List<String> problems) {
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
        List<TaskVertex> vertices = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            Set<Role> of = rolesByTask.getOrDefault(ids.get(i), EnumSet.allOf(Role.class));
            vertices.add(TaskVertex.newBuilder().setTaskId(ids.get(i)).setParallelism(counts.get(i))
                    .setTriggered(of.contains(Role.TRIGGER)).setAcknowledges(of.contains(Role.ACK))
                    .setNotified(of.contains(Role.NOTIFY)).build());
        }
        return new Tasks(vertices, values);
    }

    private static void parseTask(String value, List<String> problems, BiConsumer<String, Integer> task) {
        String flag = "--task '" + value + "': ";
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(flag + "expected TASK:PARALLELISM, e.g. map:2");
            return;
        }
        String count = value.substring(colon + 1).strip();
        if (!count.matches("[+-]?[0-9]{1,10}")) {
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

    private static Role role(String name) {
        for (Role role : Role.values()) {
            if (role.flagName.equals(name.toLowerCase(Locale.ROOT))) {
                return role;
            }
        }
        return null;
    }

    /** {@code source x1, map x2, sink x1 (ack, notify)}: roles are shown where they are not all three. */
    static String describe(List<TaskVertex> vertices) {
        return vertices.stream().map(v -> {
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
            String shown = roles.size() == Role.values().length ? "" : " (" + String.join(", ", roles) + ")";
            return v.getTaskId() + " x" + v.getParallelism() + shown;
        }).collect(Collectors.joining(", "));
    }
}
