package dev.cairn.coordinator.streams;

import static dev.cairn.coordinator.streams.CoordinatorDriver.spec;
import static dev.cairn.coordinator.streams.CoordinatorDriver.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.core.events.EventFields;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Events;
import dev.cairn.core.testing.StoredEntries;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestAdmitted;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's removal through the topology: the Kafka Streams stores (every table's store and the timer index) hold
 * nothing of the job but where its checkpoint ids got to, another job's entries stay, the completed topic tells
 * sidecars there is nothing to restore, the wall clock brings the removed job no tick, and the id registered again
 * checkpoints above the removed job's ids.
 */
class JobRemovalTopologyTest {

    private static final String JOB = "job";
    private static final String OTHER = "other";

    @TempDir
    Path stateDir;

    private CoordinatorDriver cairn;
    private TestOutputTopic<String, JournalEnvelope> journal;
    private TestOutputTopic<String, byte[]> completed;

    @BeforeEach
    void start() {
        cairn = CoordinatorDriver.start(stateDir);
        journal = cairn.journal();
        completed = cairn.completed();
    }

    @AfterEach
    void close() {
        cairn.close();
    }

    /** Checkpoint 1 of the job's two subtasks, then a stop with savepoint 2: FINISHED; the other job checkpointed. */
    private void stoppedBesideAnother() {
        cairn.register(spec(JOB, task("map", 2)));
        cairn.register(spec(OTHER, task("map", 1)));
        cairn.startTask(JOB, "map", 0);
        cairn.startTask(JOB, "map", 1);
        cairn.startTask(OTHER, "map", 0);
        request(JOB, "c1", null);
        cairn.ack(JOB, 1, "map", 0, 10);
        cairn.ack(JOB, 1, "map", 1, 10);
        request(OTHER, "o1", null);
        cairn.ack(OTHER, 1, "map", 0, 10);
        request(JOB, "stop", PostCheckpointAction.SUSPEND);
        cairn.ack(JOB, 2, "map", 0, 10);
        cairn.ack(JOB, 2, "map", 1, 10);
    }

    /** Reads what the journal and the completed topic hold so far, so that what follows is read alone. */
    private void drain() {
        journal.readValuesToList();
        completed.readRecordsToList();
    }

    /** A checkpoint request, or with an action a stop-with-savepoint. */
    private void request(String jobId, String requestId, PostCheckpointAction stop) {
        cairn.send(jobId, new RequestEnvelope(Events.triggerRequest(jobId, requestId)
                .setType(stop == null ? CheckpointType.CHECKPOINT : CheckpointType.SAVEPOINT)
                .setPostCheckpointAction(stop).setTimestampMs(cairn.now()).build()));
    }

    private void remove(String requestId) {
        cairn.send(JOB, new RequestEnvelope(RemoveJob.newBuilder().setJobId(JOB).setRequestId(requestId)
                .setRequester("test").setTimestampMs(cairn.now()).build()));
    }

    /** The jobs of the timers that can come due, one per timer. */
    private static List<String> timerJobs(CoordinatorDriver driver) {
        KeyValueStore<Bytes, Bytes> timers = driver.driver().getKeyValueStore(CoordinatorStores.TIMERS);
        List<String> jobs = new ArrayList<>();
        try (KeyValueIterator<Bytes, Bytes> it = timers.all()) {
            it.forEachRemaining(entry -> {
                if (TimerKeys.timerDueAt(entry.key) < StoreLayout.NEVER) {
                    jobs.add(TimerKeys.timerJob(entry.key));
                }
            });
        }
        return jobs;
    }

    @Test
    void shouldLeaveNothingOfTheRemovedJobInTheStoresButWhereItsIdsGotTo() {
        stoppedBesideAnother();
        drain();
        assertThat(cairn.reader().job(JOB).map(JobState::getStatus).map(Enum::name)).contains("FINISHED");
        assertThat(timerJobs(cairn)).contains(JOB);
        Map<String, Map<Object, Object>> other = StoredEntries.of(cairn.reader(), OTHER);

        remove("remove-1");

        List<Object> events = journal.readValuesToList().stream().map(JournalEnvelope::getEvent).toList();
        assertThat(events).hasExactlyElementsOfTypes(RequestAdmitted.class, RemoveJob.class, JobRemoved.class,
                RequestOutcome.class);
        assertThat(((RequestOutcome) events.get(3)).getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(StoredEntries.of(cairn.reader(), JOB)).containsOnlyKeys(StateTable.REMOVED.store(),
                StateTable.ADMISSIONS.store());
        assertThat(cairn.reader().removed(JOB).orElseThrow().getNextCheckpointId()).isEqualTo(3);
        assertThat(timerJobs(cairn)).as("the timer index keeps nothing of the job").doesNotContain(JOB);
        assertThat(StoredEntries.of(cairn.reader(), OTHER)).as("the other job's entries").isEqualTo(other);

        cairn.advance(Duration.ofSeconds(5));
        assertThat(journal.readValuesToList()).extracting(e -> EventFields.jobId((SpecificRecord) e.getEvent()))
                .as("no tick of the removed job decides anything").doesNotContain(JOB).contains(OTHER);
    }

    @Test
    void shouldTellSidecarsThereIsNothingToRestoreOnTheCompletedTopic() {
        stoppedBesideAnother();
        drain();

        remove("remove-1");

        List<TestRecord<String, byte[]>> records = completed.readRecordsToList();
        assertThat(records).extracting(TestRecord::key).containsExactly(JOB, CairnTopics.restorePartKey(JOB, 0));
        RetainedCheckpoints left = CairnSerdes.retained().deserialize(CoordinatorDriver.TOPICS.completed(),
                records.get(0).value());
        assertThat(left.getCheckpoints()).isEmpty();
        assertThat(left.getChosenAfterId()).isEqualTo(2);
        assertThat(records.get(1).value()).as("the restore part's tombstone").isNull();
    }

    @Test
    void shouldCheckpointAboveTheRemovedJobsIdsWhenTheIdIsRegisteredAgain() {
        stoppedBesideAnother();
        remove("remove-1");
        drain();

        cairn.register(spec(JOB, task("map", 1)));
        cairn.startTask(JOB, "map", 0);
        request(JOB, "again", null);

        List<CheckpointTriggered> triggered = journal.readValuesToList().stream().map(JournalEnvelope::getEvent)
                .filter(CheckpointTriggered.class::isInstance).map(CheckpointTriggered.class::cast).toList();
        assertThat(triggered).extracting(CheckpointTriggered::getCheckpointId).containsExactly(3L);
    }

    @Test
    void shouldRejectARemovalOverItsLimitsWithTheReasonInTheJournalAndRemoveNothing() {
        stoppedBesideAnother();
        drain();

        remove("r".repeat(257));

        List<Object> events = journal.readValuesToList().stream().map(JournalEnvelope::getEvent).toList();
        assertThat(events).singleElement().isInstanceOf(CommandRejected.class);
        assertThat(((CommandRejected) events.get(0)).getReason()).startsWith("request id is 257");
        assertThat(cairn.reader().job(JOB)).isPresent();
    }

    @Test
    void shouldRebuildTheStoresOfAJournalWithARemovalAsTheyWereLiveWithNoTimerOfTheRemovedJob(@TempDir Path other) {
        stoppedBesideAnother();
        remove("remove-1");
        List<TestRecord<String, byte[]>> written = cairn.rawJournal().readRecordsToList();
        Map<String, Map<Object, Object>> live = StoredEntries.of(cairn.reader(), OTHER);

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(other)
                .rebuildingFrom(StoreRebuildTopologyTest.source(written)).start()) {
            assertThat(StoredEntries.of(rebuilt.reader(), JOB)).containsOnlyKeys(StateTable.REMOVED.store(),
                StateTable.ADMISSIONS.store());
            assertThat(StoredEntries.of(rebuilt.reader(), OTHER)).isEqualTo(live);
            assertThat(timerJobs(rebuilt)).doesNotContain(JOB).contains(OTHER);
        }
    }
}
