package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.coordinator.streams.StoreRebuild;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stores are a cache of the journal, on a real broker in the signed default mode: a coordinator of a new
 * application id over the topics of another, whose consumer group is gone, rebuilds every job from the journal
 * alone, skips the inputs that journal reflects, and goes on with the pending checkpoint and the next ids; and an
 * instance does not start processing while a member of its application writes another store layout.
 */
@ExtendWith(KafkaClusterExtension.class)
class StoreRebuildIT {

    private static final List<String> TASKS = List.of("source", "sink");

    @Test
    void shouldReachTheSameStateFromTheJournalAloneUnderANewApplicationId(KafkaCluster kafka, @TempDir Path first,
            @TempDir Path second) {
        String job = CoordinatorTestBed.uniqueJobId("rebuild");
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, first).start()) {
            cairn.register(Events.job(job, 400, 60_000, TASKS.toArray(String[]::new)));
            TASKS.forEach(task -> cairn.startTask(job, task, 0, task + "-1"));
            CheckpointTriggered completedOne = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job));
            TASKS.forEach(task -> cairn.ack(job, completedOne.getCheckpointId(), task, 0, task + "-1"));
            cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getCheckpointId() == completedOne.getCheckpointId());
            CheckpointTriggered pending = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getCheckpointId() > completedOne.getCheckpointId());
            cairn.ack(job, pending.getCheckpointId(), "source", 0, "source-1");
            cairn.awaitJournal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                    && a.getCheckpointId() == pending.getCheckpointId());
            JobState before = cairn.liveJob(job);

            cairn.restartAsNewApplication(second, oldApplication -> deleteGroup(kafka, oldApplication));

            JobState rebuilt = cairn.liveJob(job);
            assertThat(rebuilt.getPending()).isEqualTo(before.getPending());
            assertThat(rebuilt.getNextCheckpointId()).isEqualTo(before.getNextCheckpointId());
            assertThat(rebuilt.getCounts()).isEqualTo(before.getCounts());
            cairn.ack(job, pending.getCheckpointId(), "sink", 0, "sink-1");
            CheckpointCompleted goneOn = cairn.awaitNextControl(CheckpointCompleted.class,
                    c -> c.getJobId().equals(job) && c.getCheckpointId() == pending.getCheckpointId());
            assertThat(goneOn.getSubtaskCount()).isEqualTo(TASKS.size());
            CheckpointTriggered next = cairn.awaitNextControl(CheckpointTriggered.class,
                    t -> t.getJobId().equals(job) && t.getCheckpointId() > pending.getCheckpointId());
            assertThat(next.getCheckpointId()).isEqualTo(pending.getCheckpointId() + 1);
            assertThat(cairn.journal(CheckpointTriggered.class, t -> t.getJobId().equals(job)
                    && t.getCheckpointId() <= pending.getCheckpointId()))
                    .as("no checkpoint triggered twice: the re-read inputs were skipped").hasSize(2);
        }
    }

    @Test
    void shouldRebuildInTheBackgroundKeepingTheInputsReadMeanwhileAndGoOn(KafkaCluster kafka, @TempDir Path first,
            @TempDir Path second) {
        List<String> jobs = List.of(CoordinatorTestBed.uniqueJobId("background-a"),
                CoordinatorTestBed.uniqueJobId("background-b"), CoordinatorTestBed.uniqueJobId("background-c"));
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, first).partitions(3)
                .kafkaProperty(StoreRebuild.INLINE_RECORDS_CONFIG, "0").start()) {
            Map<String, Long> pending = new java.util.HashMap<>();
            for (String job : jobs) {
                cairn.register(Events.job(job, 400, 60_000, TASKS.toArray(String[]::new)));
                TASKS.forEach(task -> cairn.startTask(job, task, 0, task + "-1"));
                CheckpointTriggered first1 = cairn.awaitNextControl(CheckpointTriggered.class,
                        t -> t.getJobId().equals(job));
                TASKS.forEach(task -> cairn.ack(job, first1.getCheckpointId(), task, 0, task + "-1"));
                CheckpointTriggered next = cairn.awaitNextControl(CheckpointTriggered.class,
                        t -> t.getJobId().equals(job) && t.getCheckpointId() > first1.getCheckpointId());
                cairn.ack(job, next.getCheckpointId(), "source", 0, "source-1");
                cairn.awaitJournal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                        && a.getCheckpointId() == next.getCheckpointId());
                pending.put(job, next.getCheckpointId());
            }

            cairn.restartAsNewApplication(second, oldApplication -> deleteGroup(kafka, oldApplication));

            for (String job : jobs) {
                long id = pending.get(job);
                JobState rebuilt = await("job " + job + " rebuilt").atMost(CoordinatorTestBed.WAIT)
                        .until(() -> cairn.liveJob(job), java.util.Objects::nonNull);
                assertThat(rebuilt.getNextCheckpointId()).isEqualTo(id + 1);
                cairn.ack(job, id, "sink", 0, "sink-1");
                cairn.awaitNextControl(CheckpointCompleted.class,
                        c -> c.getJobId().equals(job) && c.getCheckpointId() == id);
                assertThat(cairn.journal(CheckpointTriggered.class, t -> t.getJobId().equals(job)
                        && t.getCheckpointId() <= id))
                        .as("no checkpoint triggered twice: the inputs kept while rebuilding were skipped").hasSize(2);
            }
            MeterRegistry registry = cairn.coordinator().metrics().registry();
            assertThat(registry.find("cairn.store.rebuilds").counters()).as("every partition rebuilt once")
                    .hasSize(3).allSatisfy(counter -> assertThat(counter.count()).isEqualTo(1.0));
        }
    }

    @Test
    void shouldNotStartProcessingWhileAMemberOfAnotherLayoutIsInTheGroup(KafkaCluster kafka, @TempDir Path dir) {
        String application = "layout-guard-" + UUID.randomUUID();
        CairnTopics topics = new CairnTopics("guard-" + UUID.randomUUID().toString().substring(0, 8) + ".");
        CoordinatorConfig config = new CoordinatorConfig(kafka.bootstrapServers(), application, topics, 1, (short) 1,
                dir, Duration.ofMillis(50), Duration.ofMillis(20), Map.of(), null,
                CoordinatorConfig.Failover.DEFAULTS, SigningKey.generate(), false, InputLimits.DEFAULTS, (short) 1,
                CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL, null, null);
        KafkaConsumer<byte[], byte[]> newer = memberOfLayout(kafka, application, StoreLayout.CURRENT + 1);
        try {
            newer.subscribe(List.of("layout-guard-topic"));
            await().atMost(CoordinatorTestBed.WAIT).ignoreExceptions().until(() -> {
                newer.poll(Duration.ofMillis(100));
                return memberCount(kafka, application) == 1;
            });
            try (CoordinatorApp app = CoordinatorApp.start(config)) {
                await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                        .until(() -> app.streams().state() == KafkaStreams.State.CREATED);

                newer.close();

                await().atMost(CoordinatorTestBed.WAIT)
                        .until(() -> app.streams().state() == KafkaStreams.State.RUNNING);
            }
        } finally {
            newer.close();
        }
    }

    private static KafkaConsumer<byte[], byte[]> memberOfLayout(KafkaCluster kafka, String group, long layout) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.CLIENT_ID_CONFIG, group + "-layout" + layout + "-other"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static int memberCount(KafkaCluster kafka, String group) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group).members().size();
        }
    }

    /** Deletes the consumer group of an application that stopped, as a new application id leaves it behind. */
    static void deleteGroup(KafkaCluster kafka, String group) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            await().atMost(CoordinatorTestBed.WAIT).ignoreExceptions()
                    .until(() -> admin.deleteConsumerGroups(List.of(group)).all().get() == null);
        }
    }
}
