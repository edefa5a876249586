package dev.cairn.coordinator.streams;

import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.JOB;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.assertWentOnWhereTheWriterLeft;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.runUntilOnePendingAndOneQueued;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.sendTheInputsOf;
import static dev.cairn.coordinator.streams.StoreRebuildTopologyTest.timers;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.events.Command;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.JournalEnvelope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.test.TestRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream task whose journal partition is too long to fold within {@code Processor.init} rebuilds its stores in the
 * background: nothing is decided meanwhile, its inputs are kept in order, the stores are written in steps, and the
 * kept inputs are then decided as if they had come after the rebuild; one that fails goes to the dead-letter topic
 * with its place and reason, and the next goes on.
 */
class BackgroundRebuildTopologyTest {

    @TempDir
    Path first;
    @TempDir
    Path second;

    @Test
    void shouldKeepTheInputsWhileTheStoresAreRebuiltAndDecideThemInOrderAfter() throws Exception {
        List<TestRecord<String, byte[]>> journal;
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            journal = writer.rawJournal().readRecordsToList();
        }
        GatedSource source = new GatedSource(journal);

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(source).start()) {
            sendTheInputsOf(rebuilt);
            rebuilt.ack(JOB, 2, "source", 1, 10);
            rebuilt.ack(JOB, 2, "sink", 0, 10);
            rebuilt.advance(Duration.ofSeconds(1));

            assertThat(rebuilt.journal().readValuesToList()).as("nothing decided while rebuilding").isEmpty();
            assertThat(StoreLayout.recorded(timers(rebuilt))).isEmpty();
            assertThat(RebuildBacklog.entries(timers(rebuilt))).hasSize(11)
                    .extracting(RebuildBacklog.Entry::topic).endsWith(CoordinatorDriver.TOPICS.acks(),
                            CoordinatorDriver.TOPICS.acks());

            source.open.countDown();
            awaitCaughtUp(rebuilt);

            assertThat(RebuildBacklog.entries(timers(rebuilt))).isEmpty();
            assertThat(rebuilt.journal().readValuesToList()).extracting(JournalEnvelope::getEvent)
                    .as("the two new acks decided, the nine inputs the journal reflects not again")
                    .filteredOn(CheckpointAcknowledged.class::isInstance)
                    .extracting(e -> ((CheckpointAcknowledged) e).getTaskId() + "/"
                            + ((CheckpointAcknowledged) e).getSubtaskIndex())
                    .containsExactly("source/1", "sink/0");
            assertWentOnWhereTheWriterLeft(rebuilt);
        }
    }

    @Test
    void shouldDeadLetterAKeptInputThatFailsWhenDecidedAndDecideTheNext() throws Exception {
        List<TestRecord<String, byte[]>> journal;
        try (CoordinatorDriver writer = CoordinatorDriver.start(first)) {
            runUntilOnePendingAndOneQueued(writer);
            journal = writer.rawJournal().readRecordsToList();
        }
        GatedSource source = new GatedSource(journal);

        try (CoordinatorDriver rebuilt = CoordinatorDriver.on(second).rebuildingFrom(source)
                .wrapDecide(decide -> (command, state, now) -> {
                    if (command instanceof Command.Acknowledge ack && ack.event().getTaskId().equals("source")
                            && ack.event().getCheckpointId() == 2) {
                        throw new IllegalStateException("this ack breaks the decider");
                    }
                    return decide.decide(command, state, now);
                }).start()) {
            sendTheInputsOf(rebuilt);
            rebuilt.ack(JOB, 2, "source", 1, 10);
            rebuilt.ack(JOB, 2, "sink", 0, 10);
            source.open.countDown();
            awaitCaughtUp(rebuilt);

            List<TestRecord<byte[], byte[]>> dead = rebuilt.deadLetters().readRecordsToList();
            assertThat(dead).singleElement().satisfies(letter -> {
                assertThat(header(letter, DeadLetterQueueHandler.REASON)).isEqualTo("IllegalStateException");
                assertThat(header(letter, DeadLetterQueueHandler.SOURCE_TOPIC))
                        .isEqualTo(CoordinatorDriver.TOPICS.acks());
                assertThat(header(letter, DeadLetterQueueHandler.SOURCE_OFFSET)).isEqualTo("7");
                assertThat(header(letter, DeadLetterQueueHandler.MESSAGE)).contains("this ack breaks the decider");
                assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo(JOB);
                assertThat(letter.value()).isNotEmpty();
            });
            assertThat(rebuilt.journal().readValuesToList()).as("the sink's ack, kept after it, was decided")
                    .anySatisfy(envelope -> assertThat(envelope.getEvent()).isInstanceOf(CheckpointAcknowledged.class));
        }
    }

    /** Advances the wall clock, which the catching-up punctuator runs on, until the stores are rebuilt and drained. */
    static void awaitCaughtUp(CoordinatorDriver driver) {
        Awaitility.await("the stores rebuilt and every kept input decided").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(10)).until(() -> {
                    driver.advance(CoordinatorProcessor.CATCH_UP_EVERY);
                    return StoreLayout.recorded(timers(driver)).isPresent()
                            && RebuildBacklog.entries(timers(driver)).isEmpty();
                });
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /** A journal longer than a rebuild folds at once, read only once the test opens it. */
    private static final class GatedSource implements JournalSource {
        final CountDownLatch open = new CountDownLatch(1);
        private final JournalSource journal;

        GatedSource(List<TestRecord<String, byte[]>> records) {
            this.journal = StoreRebuildTopologyTest.source(records);
        }

        @Override
        public long records(Map<String, Object> appConfigs, String topic, int partition) {
            return StoreRebuild.INLINE_RECORDS + 1;
        }

        @Override
        public void read(Map<String, Object> appConfigs, String topic, int partition, long fromOffset,
                RecordSink sink) {
            try {
                if (!open.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never opened the journal");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            journal.read(appConfigs, topic, partition, fromOffset, sink);
        }
    }
}
