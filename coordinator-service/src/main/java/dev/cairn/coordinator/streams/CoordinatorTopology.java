package dev.cairn.coordinator.streams;

import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.decide.CheckpointDecider;
import dev.cairn.events.topics.CairnTopics;
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
 *                          requests, request index (the
 *                          tables of StateTable), timers
 *                          (and the layout), instance
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
    public static final int DEFAULT_MAX_RECORD_BYTES = CoordinatorSettings.DEFAULT_MAX_RECORD_BYTES;

    private CoordinatorTopology() {}

    /** The topology over {@code options}' topics, with its stores and its one processor. */
    public static Topology build(TopologyOptions options) {
        CairnTopics topics = options.topics();
        CoordinatorSettings settings = options.settings().withMaxRecordBytes(options.maxRecordBytes());
        CheckpointDecider decider = new CheckpointDecider(settings);
        Topology topology = new Topology();
        topology.addSource(REQUESTS_SOURCE, new StringDeserializer(), options.auth().requests(), topics.requests());
        topology.addSource(ACKS_SOURCE, new StringDeserializer(), options.auth().acks(), topics.acks());
        topology.addProcessor(PROCESSOR,
                () -> new CoordinatorProcessor(options.wrapDecide().apply(decider::decide),
                        new CommandMapper(options.random(), settings.limits().maxIdLength()),
                        options.tickInterval(), new OutputSizeGuard(settings.maxRecordBytes()), options.listener(),
                        new StoreRebuild(settings, options.journal(), options.snapshots(), options.listener()),
                        topics.journal()),
                REQUESTS_SOURCE, ACKS_SOURCE);
        CoordinatorStores.builders().forEach(store -> topology.addStateStore(store, PROCESSOR));
        topology.addSink(JOURNAL_SINK, topics.journal(), new StringSerializer(), new ByteArraySerializer(), PROCESSOR);
        topology.addSink(CONTROL_SINK, topics.control(), new StringSerializer(), new ByteArraySerializer(), PROCESSOR);
        topology.addSink(COMPLETED_SINK, topics.completed(), new StringSerializer(),
                CompletedTopicRecords.serializer(), CompletedTopicRecords.partitioner(), PROCESSOR);
        return topology;
    }
}
