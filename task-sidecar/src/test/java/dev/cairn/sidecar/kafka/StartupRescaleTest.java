package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.KeyGroupRange;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.RestoredState;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A sidecar of a rescaled task starts: it restores only once it has read every restore part of the checkpoint (the
 * states handed to its subtask may be in any of them), and says so when the job no longer has its subtask. The reads
 * are faked, the rest of start-up's restore is the real one.
 */
class StartupRescaleTest {

    private static final String JOB = "orders";
    private static final String TASK = "map";
    private static final List<RestoredTask> TASKS = List.of(new RestoredTask(TASK, 3, 128, 2));

    static {
        CairnSerdes.control();
    }

    @Test
    void shouldRestoreEveryHandedStateWhenTheMissingPartShowsOnALaterRead() {
        // given the first read shows part 0 of 2 only, the second both
        RestorePart first = part(0, entry(1, 0, 0, 63));
        RestorePart second = part(1, entry(1, 1, 64, 127));
        FakeStartupSource reads = new FakeStartupSource(List.of(), records(first), records(first, second));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when
        Startup.Restored restored = Startup.restore(hook, settings(1), reads, Deadline.after(Duration.ofSeconds(30)),
                Optional.empty());

        // then the worker restored once, from both states
        assertThat(reads.completedReads).isEqualTo(2);
        assertThat(hook.restores).hasSize(1);
        RestorePoint point = hook.restores.get(0).orElseThrow();
        assertThat(point.states()).extracting(RestoredState::fromSubtask).containsExactly(0, 1);
        assertThat(point.keyGroups()).isEqualTo(new dev.cairn.sidecar.hook.KeyGroupRange(43, 85));
        assertThat(restored.point()).contains(point);
    }

    @Test
    void shouldFailNamingTheMissingPartWhenItNeverShows() {
        // given every read shows part 0 of 2 only
        FakeStartupSource reads = new FakeStartupSource(List.of(), records(part(0, entry(1, 0, 0, 63))));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when / then
        assertThatThrownBy(() -> Startup.restore(hook, settings(1), reads, Deadline.after(Duration.ofMillis(500)),
                Optional.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shows 1 of the 2 restore parts of checkpoint 5 (missing: [1]) of job orders")
                .hasMessageContaining("not restoring the worker from part of a checkpoint");
        assertThat(hook.restores).isEmpty();
        assertThat(reads.completedReads).isGreaterThan(1);
    }

    @Test
    void shouldRestoreNothingAndSaySoWhenTheJobNoLongerHasTheSubtask() {
        // given map restores with 3 subtasks, and this sidecar is subtask 3
        FakeStartupSource reads = new FakeStartupSource(List.of(), records(part(0, entry(1, 0, 0, 63)),
                part(1, entry(1, 1, 64, 127))));
        RecordingRestoreHook hook = new RecordingRestoreHook();
        Logger logger = (Logger) LoggerFactory.getLogger(Startup.class);
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        logger.addAppender(log);

        // when
        try {
            Startup.restore(hook, settings(3), reads, Deadline.after(Duration.ofSeconds(30)), Optional.empty());
        } finally {
            logger.detachAppender(log);
        }

        // then
        assertThat(hook.restores).containsExactly(Optional.empty());
        assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly("Task map subtask 3 of job orders: the job restores checkpoint 5 with parallelism 3"
                        + " for task map (previously 2), so it has no subtask 3 any more; the worker starts with"
                        + " nothing to restore. Was it deployed with the job's old parallelism?");
    }

    private static RuntimeSettings settings(int subtaskIndex) {
        return new RuntimeSettings("localhost:9092", CairnTopics.defaults(), JOB, TASK, subtaskIndex,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Map.of(), null);
    }

    /** What the completed topic shows: checkpoint 5 as the restore point, and these parts of it. */
    private static RestoreRecords records(RestorePart... parts) {
        CheckpointCompleted five = CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(5)
                .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(0).setCompletionTimestampMs(1)
                .setStorageLocation("file:///cp/" + JOB).setSubtaskStates(List.of()).setTotalSizeBytes(100)
                .setSubtaskCount(2).setOptions(SnapshotOptions.newBuilder().build()).build();
        Map<String, RestorePart> byKey = new HashMap<>();
        for (RestorePart part : parts) {
            byKey.put(CairnTopics.restorePartKey(JOB, part.getPart()), part);
        }
        return new RestoreRecords(Optional.of(RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of(five)).build()), byKey);
    }

    private static RestorePart part(int number, SubtaskState... states) {
        return new RestorePart(JOB, 5L, number, 2, List.of(states), TASKS);
    }

    /** The keyed state of old subtask {@code from}, handed to new subtask {@code subtask}. */
    private static SubtaskState entry(int subtask, int from, int start, int end) {
        return SubtaskState.newBuilder().setTaskId(TASK).setSubtaskIndex(subtask).setAttemptId("attempt-" + from)
                .setFromSubtaskIndex(from).setHandle(StateHandle.newBuilder()
                        .setLocation("file:///cp/" + JOB + "/chk-5/" + TASK + "-" + from).setSizeBytes(10L)
                        .setKeyGroups(new KeyGroupRange(start, end)).build())
                .build();
    }
}
