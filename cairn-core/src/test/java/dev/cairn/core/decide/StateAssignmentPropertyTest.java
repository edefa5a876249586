package dev.cairn.core.decide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskParallelism;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The key-group arithmetic and the state assignment of a restore with another parallelism, for any old and new
 * parallelism up to the max parallelism: every key group has exactly one new owner, every keyed state that covers it
 * is handed to that owner and to no subtask it does not overlap, a split state goes to exactly one subtask, a union
 * state to every one, an unchanged parallelism hands each subtask its own state, and a change of max parallelism is
 * refused.
 */
class StateAssignmentPropertyTest {

    private static final String KEYED = "count";
    private static final String SPLIT = "split";
    private static final String UNION = "source";

    @Property(tries = 300)
    void everyKeyGroupHasExactlyOneOwnerAtAnyParallelism(@ForAll @IntRange(min = 1, max = 4096) int maxParallelism,
            @ForAll @IntRange(min = 1, max = 4096) int wanted) {
        int parallelism = Math.min(wanted, maxParallelism);
        int[] owners = new int[maxParallelism];
        int next = 0;
        for (int subtask = 0; subtask < parallelism; subtask++) {
            KeyGroupRange range = KeyGroupRanges.forSubtask(maxParallelism, parallelism, subtask);
            assertThat(range.getStartKeyGroup()).as("contiguous, in order").isEqualTo(next);
            for (int group = range.getStartKeyGroup(); group <= range.getEndKeyGroup(); group++) {
                owners[group]++;
                assertThat(KeyGroupRanges.subtaskOf(maxParallelism, parallelism, group)).isEqualTo(subtask);
            }
            next = range.getEndKeyGroup() + 1;
        }
        assertThat(next).isEqualTo(maxParallelism);
        assertThat(owners).containsOnly(1);
    }

    @Property(tries = 400)
    void shouldHandEveryKeyGroupsStatesToItsNewOwnerOnly(@ForAll @IntRange(min = 1, max = 300) int maxParallelism,
            @ForAll @IntRange(min = 1, max = 40) int oldWanted, @ForAll @IntRange(min = 1, max = 40) int newWanted) {
        int oldParallelism = Math.min(oldWanted, maxParallelism);
        int newParallelism = Math.min(newWanted, maxParallelism);
        CheckpointCompleted point = point(maxParallelism, oldParallelism);
        List<CheckpointAcknowledged> states = states(maxParallelism, oldParallelism);
        JobSpec spec = spec(maxParallelism, newParallelism);

        assertThat(StateAssignment.problem(point, states, spec)).isEmpty();
        StateAssignment.Assigned assigned = StateAssignment.assign(point, states, spec);

        Map<String, List<SubtaskState>> byTask = new HashMap<>();
        assigned.states().forEach(s -> byTask.computeIfAbsent(s.getTaskId(), t -> new ArrayList<>()).add(s));
        assertThat(assigned.tasks()).extracting(RestoredTask::getTaskId).containsExactlyInAnyOrder(KEYED, SPLIT,
                UNION);
        if (oldParallelism == newParallelism) {
            assertThat(assigned.states()).allSatisfy(s -> {
                assertThat(s.getFromSubtaskIndex()).isEqualTo(-1);
                assertThat(s.getHandle().getLocation()).endsWith("/" + s.getSubtaskIndex());
            });
            assertThat(assigned.states()).hasSize(states.size());
            return;
        }
        List<SubtaskState> keyed = byTask.get(KEYED);
        for (int group = 0; group < maxParallelism; group++) {
            int owner = KeyGroupRanges.subtaskOf(maxParallelism, newParallelism, group);
            for (CheckpointAcknowledged state : states) {
                KeyGroupRange range = state.getStateHandle().getKeyGroups();
                if (range != null && KeyGroupRanges.contains(range, group)) {
                    assertThat(keyed).as("group %s of old subtask %s goes to %s", group, state.getSubtaskIndex(),
                            owner).anyMatch(s -> s.getSubtaskIndex() == owner
                            && s.getFromSubtaskIndex() == state.getSubtaskIndex());
                }
            }
        }
        assertThat(keyed).as("no keyed state goes where it has no key group").allSatisfy(s -> assertThat(
                KeyGroupRanges.overlap(s.getHandle().getKeyGroups(), KeyGroupRanges.forSubtask(maxParallelism,
                        newParallelism, s.getSubtaskIndex()))).isTrue());
        assertThat(byTask.get(SPLIT)).hasSize(oldParallelism).allSatisfy(s -> assertThat(s.getSubtaskIndex())
                .isEqualTo(s.getFromSubtaskIndex() % newParallelism));
        assertThat(byTask.get(UNION)).hasSize(oldParallelism * newParallelism);
        assertThat(assigned.states()).allSatisfy(s -> assertThat(s.getSubtaskIndex()).isBetween(0,
                newParallelism - 1));
    }

    @Property(tries = 100)
    void shouldRefuseARestoreWhoseMaxParallelismChanged(@ForAll @IntRange(min = 1, max = 300) int taken,
            @ForAll @IntRange(min = 1, max = 300) int wanted) {
        int parallelism = 1;
        CheckpointCompleted point = point(taken, parallelism);
        Optional<String> problem = StateAssignment.problem(point, states(taken, parallelism), spec(wanted,
                parallelism));

        if (taken == wanted) {
            assertThat(problem).isEmpty();
        } else {
            assertThat(problem).hasValueSatisfying(p -> assertThat(p).contains("max parallelism " + wanted,
                    "was taken with " + taken, "set the task's maxParallelism back to " + taken));
        }
    }

    private static CheckpointCompleted point(int maxParallelism, int parallelism) {
        return CheckpointCompleted.newBuilder().setJobId("job").setCheckpointId(7).setType(CheckpointType.SAVEPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("mem://sp-7")
                .setTotalSizeBytes(0).setSubtaskCount(3 * parallelism)
                .setParallelism(List.of(new TaskParallelism(KEYED, parallelism, maxParallelism),
                        new TaskParallelism(SPLIT, parallelism, maxParallelism),
                        new TaskParallelism(UNION, parallelism, maxParallelism)))
                .build();
    }

    /** Every subtask of the three tasks: keyed by its own key groups, split, union. */
    private static List<CheckpointAcknowledged> states(int maxParallelism, int parallelism) {
        List<CheckpointAcknowledged> states = new ArrayList<>();
        for (String task : List.of(KEYED, SPLIT, UNION)) {
            for (int subtask = 0; subtask < parallelism; subtask++) {
                StateHandle.Builder handle = StateHandle.newBuilder().setLocation("mem://" + task + "/" + subtask)
                        .setSizeBytes(1);
                if (task.equals(KEYED)) {
                    handle.setKeyGroups(KeyGroupRanges.forSubtask(maxParallelism, parallelism, subtask));
                } else {
                    handle.setOperatorStateMode(task.equals(SPLIT) ? OperatorStateMode.SPLIT_DISTRIBUTE
                            : OperatorStateMode.UNION);
                }
                states.add(CheckpointAcknowledged.newBuilder().setJobId("job").setCheckpointId(7).setTaskId(task)
                        .setSubtaskIndex(subtask).setAttemptId(task + "-" + subtask).setStateHandle(handle.build())
                        .setMetrics(SubtaskMetrics.newBuilder().build()).setTimestampMs(0).build());
            }
        }
        return states;
    }

    private static JobSpec spec(int maxParallelism, int parallelism) {
        List<TaskVertex> tasks = new ArrayList<>();
        for (String task : List.of(UNION, KEYED, SPLIT)) {
            tasks.add(TaskVertex.newBuilder().setTaskId(task).setParallelism(parallelism)
                    .setMaxParallelism(maxParallelism).build());
        }
        return JobSpec.newBuilder().setJobId("job").setTasks(tasks).setConfig(dev.cairn.core.testing.Fixtures
                .config().build()).setTimestampMs(0).build();
    }
}
