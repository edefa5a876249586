package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.SubtaskMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The processor asks Kafka Streams to commit as soon as a checkpoint completes, so that its restore point is not
 * held back until the commit interval ends, and at most once per commit interval, so that a burst of completions
 * adds at most one commit to the regular ones. A processor on Kafka Streams' own mock context, which records
 * whether a commit was asked for.
 */
class CompletionCommitTest {

    private static final long COMMIT_INTERVAL_MS = 20;
    private static final long START = 1_800_000_000_000L;

    private MockProcessorContext<String, Object> context;
    private CoordinatorProcessor processor;

    @BeforeEach
    void start() {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "completion-commit-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(COMMIT_INTERVAL_MS));
        context = new MockProcessorContext<>(config);
        context.setCurrentSystemTimeMs(START);
        CoordinatorStores.builders().stream()
                .filter(builder -> !builder.name().equals(CoordinatorStores.INSTANCE))
                .forEach(builder -> {
                    StateStore store = builder.withLoggingDisabled().build();
                    store.init(context.getStateStoreContext(), store);
                    context.addStateStore(store);
                });
        CoordinatorSettings settings = CoordinatorSettings.DEFAULTS;
        processor = new CoordinatorProcessor(new CheckpointDecider(settings)::decide, new CommandMapper(() -> 0.0,
                settings.limits().maxIdLength()), Duration.ofMillis(100), new OutputSizeGuard(1_000_000),
                DecisionListener.NONE, new StoreRebuild(settings, JournalSource.EMPTY, DecisionListener.NONE),
                CoordinatorDriver.TOPICS.journal());
        processor.init(context);
        process(new RequestEnvelope(Events.jobSpec("job", Map.of("map", 2))
                .setConfig(Events.config(3_600_000, 60_000).setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(START).build()));
        for (int subtask = 0; subtask < 2; subtask++) {
            process(new AckEnvelope(Events.taskStarted("job", "map", subtask, "a-" + subtask).build()));
        }
    }

    @Test
    void shouldAskForACommitWhenACheckpointCompletesAndNotBefore() {
        trigger(1);
        ack(1, 0);
        assertThat(context.committed()).as("committed before the checkpoint completed").isFalse();

        ack(1, 1);

        assertThat(context.committed()).isTrue();
    }

    @Test
    void shouldAskAtMostOncePerCommitInterval() {
        checkpoint(1);
        assertThat(context.committed()).isTrue();
        context.resetCommit();

        context.setCurrentSystemTimeMs(START + COMMIT_INTERVAL_MS - 1);
        checkpoint(2);
        assertThat(context.committed()).as("asked again within one interval").isFalse();

        context.setCurrentSystemTimeMs(START + COMMIT_INTERVAL_MS);
        checkpoint(3);
        assertThat(context.committed()).isTrue();
    }

    private void checkpoint(long id) {
        trigger(id);
        ack(id, 0);
        ack(id, 1);
    }

    private void trigger(long id) {
        process(new RequestEnvelope(Events.triggerRequest("job", "r-" + id)
                .setTimestampMs(context.currentSystemTimeMs()).build()));
    }

    private void ack(long id, int subtask) {
        process(new AckEnvelope(Events.ack("job", id, "map", subtask, "a-" + subtask)
                .setStateHandle(Events.state("file:///cp/job/chk-" + id + "/map-" + subtask, 10L))
                .setMetrics(SubtaskMetrics.newBuilder().build()).build()));
    }

    private void process(SpecificRecord envelope) {
        processor.process(new Record<>("job", envelope, context.currentSystemTimeMs()));
    }
}
