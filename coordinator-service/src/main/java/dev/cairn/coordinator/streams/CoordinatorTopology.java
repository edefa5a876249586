package dev.cairn.coordinator.streams;

import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.core.rules.CoordinatorSettings;
import dev.cairn.core.rules.RestoreParts;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

/**
 * Builds the coordinator's Kafka Streams topology (the one main, the demo and the tests run):
 *
 * <pre>
 *   cairn.requests --+                                +--> cairn.journal   (every event, in order)
 *                    +--> coordinator (decide, evolve) +--> cairn.control   (trigger / complete / abort)
 *   cairn.acks ------+     stores: jobs, specs,        +--> cairn.completed (retained checkpoints per job)
 *                          vertices, attempts, finished,
 *                          acks, summaries, retained,
 *                          requests, request index,
 *                          timers (and the layout)
 *        cairn.journal ---> (read once per task when its stores must be rebuilt: StoreRebuild)
 * </pre>
 *
 * Both sources feed one processor; the topics are co-partitioned by job id, so one stream task owns all
 * of a job's records and state. A wall-clock punctuator fires due timers every {@code tickInterval}.
 */
public final class CoordinatorTopology {

    static final String REQUESTS_SOURCE = "requests-source";
    static final String ACKS_SOURCE = "acks-source";
    static final String PROCESSOR = "coordinator";
    static final String JOURNAL_SINK = "journal-sink";
    static final String CONTROL_SINK = "control-sink";
    static final String COMPLETED_SINK = "completed-sink";
    /** Below Kafka's default max.message.bytes (1 MiB) and max.request.size, leaving room for key and headers. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1_000_000;

    private CoordinatorTopology() {}

    /**
     * @param topics the topic names
     * @param settings the decider's bounds (queue capacity, history size)
     * @param random draws the random fraction of the first periodic trigger's delay
     * @param tickInterval how often due timers are looked for
     */
    public static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval) {
        return build(topics, settings, random, tickInterval, DEFAULT_MAX_RECORD_BYTES, InputAuthentication.NONE);
    }

    /**
     * @param maxRecordBytes the largest record value the coordinator sends; a decision that would send a
     *     larger one is refused and its input dead-lettered (see {@link OutputSizeGuard})
     * @param auth which input records must be signed ({@link InputAuthentication}): with a master key, every
     *     record of the acks topic with its job's key and every request with the requests key (unless unsigned
     *     requests are allowed); unsigned or mis-signed records are dead-lettered
     */
    public static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval, int maxRecordBytes, InputAuthentication auth) {
        return build(topics, settings, random, tickInterval, maxRecordBytes, auth, DecisionListener.NONE);
    }

    /** As above, handing every applied decision's events to {@code listener} (the coordinator's metrics). */
    public static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval, int maxRecordBytes, InputAuthentication auth,
            DecisionListener listener) {
        return build(topics, settings, random, tickInterval, maxRecordBytes, auth, listener, JournalSource.EMPTY);
    }

    /**
     * As above, rebuilding stores that are not of this release's layout from the journal read from {@code journal}
     * ({@link KafkaJournalSource} in a coordinator; see {@link StoreRebuild}).
     */
    public static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval, int maxRecordBytes, InputAuthentication auth,
            DecisionListener listener, JournalSource journal) {
        return build(topics, settings, random, tickInterval, maxRecordBytes, auth,
                new Wiring(UnaryOperator.identity(), listener, journal));
    }

    /** As above, with the decider wrapped by {@code wrapDecide} (tests make it fail). */
    static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval, int maxRecordBytes, InputAuthentication auth,
            UnaryOperator<CoordinatorProcessor.Decide> wrapDecide) {
        return build(topics, settings, random, tickInterval, maxRecordBytes, auth,
                new Wiring(wrapDecide, DecisionListener.NONE, JournalSource.EMPTY));
    }

    /** What the processor is wired to besides its settings: the decider's wrapper, the listener, the journal. */
    private record Wiring(UnaryOperator<CoordinatorProcessor.Decide> wrapDecide, DecisionListener listener,
            JournalSource journal) {
    }

    private static Topology build(CairnTopics topics, CoordinatorSettings settings, DoubleSupplier random,
            Duration tickInterval, int maxRecordBytes, InputAuthentication auth, Wiring wiring) {
        OutputSizeGuard.requireValidLimit(maxRecordBytes);
        CheckpointDecider decider = new CheckpointDecider(settings);
        Topology topology = new Topology();
        topology.addSource(REQUESTS_SOURCE, new StringDeserializer(), auth.requests(), topics.requests());
        topology.addSource(ACKS_SOURCE, new StringDeserializer(), auth.acks(), topics.acks());
        topology.addProcessor(PROCESSOR,
                () -> new CoordinatorProcessor(wiring.wrapDecide().apply(decider::decide),
                        new CommandMapper(random, settings.limits().maxIdLength()),
                        RestoreParts.statesPerPart(settings.limits(), maxRecordBytes), tickInterval,
                        new OutputSizeGuard(maxRecordBytes), wiring.listener(),
                        new StoreRebuild(settings, wiring.journal(), wiring.listener()), topics.journal()),
                REQUESTS_SOURCE, ACKS_SOURCE);
        CoordinatorStores.builders().forEach(store -> topology.addStateStore(store, PROCESSOR));
        topology.addSink(JOURNAL_SINK, topics.journal(), new StringSerializer(), new ByteArraySerializer(), PROCESSOR);
        topology.addSink(CONTROL_SINK, topics.control(), new StringSerializer(), new ByteArraySerializer(), PROCESSOR);
        topology.addSink(COMPLETED_SINK, topics.completed(), new StringSerializer(),
                CompletedTopicRecords.serializer(), CompletedTopicRecords.partitioner(), PROCESSOR);
        return topology;
    }
}
