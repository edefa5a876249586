package dev.cairn.coordinator.cli;

import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns {@code --task TASK:PARALLELISM} and {@code --task-roles TASK:ROLE[,ROLE...]} into the job's
 * vertices, collecting a message naming the flag and its value for every malformed one.
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
     * The vertices, in the order of the {@code --task} flags; problems are added to {@code problems}.
     *
     * @param tasks the values of {@code --task}
     * @param roles the values of {@code --task-roles}
     */
    static List<TaskVertex> vertices(List<String> tasks, List<String> roles, List<String> problems) {
        Map<String, Integer> parallelism = new LinkedHashMap<>();
        for (String task : tasks) {
            parseTask(task, parallelism, problems);
        }
        Map<String, Set<Role>> rolesByTask = new LinkedHashMap<>();
        for (String role : roles) {
            parseRoles(role, parallelism.keySet(), rolesByTask, problems);
        }
        List<TaskVertex> vertices = new ArrayList<>();
        parallelism.forEach((taskId, count) -> {
            Set<Role> of = rolesByTask.getOrDefault(taskId, EnumSet.allOf(Role.class));
            vertices.add(TaskVertex.newBuilder().setTaskId(taskId).setParallelism(count)
                    .setTriggered(of.contains(Role.TRIGGER)).setAcknowledges(of.contains(Role.ACK))
                    .setNotified(of.contains(Role.NOTIFY)).build());
        });
        if (!vertices.isEmpty() && problems.isEmpty()) {
            if (vertices.stream().noneMatch(TaskVertex::getTriggered)) {
                problems.add("--task-roles: no task has the role trigger, so no checkpoint could ever start; "
                        + "give it to at least one task (usually the sources)");
            }
            if (vertices.stream().noneMatch(TaskVertex::getAcknowledges)) {
                problems.add("--task-roles: no task has the role ack, so no checkpoint could ever complete; "
                        + "give it to at least one task");
            }
        }
        return vertices;
    }

    private static void parseTask(String value, Map<String, Integer> parallelism, List<String> problems) {
        String flag = "--task '" + value + "': ";
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            problems.add(flag + "expected TASK:PARALLELISM, e.g. map:2");
            return;
        }
        String taskId = value.substring(0, colon).strip();
        String count = value.substring(colon + 1).strip();
        if (taskId.isEmpty()) {
            problems.add(flag + "the task id before ':' is empty");
            return;
        }
        int parsed = parallelism(count);
        if (parsed < 1) {
            problems.add(flag + "parallelism must be a whole number >= 1");
            return;
        }
        if (parallelism.containsKey(taskId)) {
            problems.add(flag + "task '" + taskId + "' is declared twice; give each task one --task");
            return;
        }
        parallelism.put(taskId, parsed);
    }

    /** The parallelism, or 0 when it is not a whole number (or too large for one). */
    private static int parallelism(String text) {
        if (!text.matches("[+]?[0-9]{1,10}")) {
            return 0;
        }
        long value = Long.parseLong(text);
        return value > Integer.MAX_VALUE ? 0 : (int) value;
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
            problems.add(flag + "the roles of task '" + taskId + "' are given twice; list them all in one --task-roles");
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
