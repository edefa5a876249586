package dev.cairn.demo.acls;

import static dev.cairn.demo.acls.SecuredKafka.APPLICATION_ID;
import static dev.cairn.demo.acls.SecuredKafka.TOPICS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.auth.SigningKey;
import dev.cairn.cli.CairnCli;
import dev.cairn.config.PropertiesFile;
import dev.cairn.coordinator.app.CoordinatorApp;
import dev.cairn.coordinator.app.CoordinatorConfig;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.SchemaCatalog;
import dev.cairn.events.serde.SchemaPublisher;
import dev.cairn.events.serde.SchemaTopicSource;
import dev.cairn.kafka.test.TopicTail;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.topics.KafkaAcls.Principal;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "Kafka ACLs" table of {@code docs/security.md} on a broker that enforces it ({@link SecuredKafka}: SASL/SCRAM,
 * {@code StandardAuthorizer}, nothing allowed without an ACL): a coordinator, a job's sidecars, a requester and an
 * auditor, each signed in as its own principal with exactly its {@code KafkaAcls} grants, run a job end to end in the
 * default signed mode; and each principal is refused, with Kafka's own exception, what the table does not give it.
 */
class KafkaAclsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String JOB = "acls-job";

    @TempDir
    static Path dir;

    private static SecuredKafka kafka;
    private static SigningKey master;
    private static CoordinatorApp coordinator;
    private static final List<Sidecar> SIDECARS = new ArrayList<>();

    @BeforeAll
    static void startTheBrokerAndTheCoordinator() throws IOException {
        kafka = SecuredKafka.start();
        master = SigningKey.generate();
        Files.writeString(dir.resolve("requests.key"), master.requestsKey().toBase64() + "\n");
        // the coordinator's kafka.config file, read as CoordinatorKeys reads it; a snapshot every second, so that the
        // coordinator writes cairn.snapshots while the tests run
        Map<String, String> kafkaConfig = PropertiesFile.read(kafka.kafkaConfigFile(Principal.COORDINATOR, dir),
                "kafka.config");
        CoordinatorConfig config = new CoordinatorConfig(kafka.bootstrapServers(), APPLICATION_ID, TOPICS, 2,
                (short) 1, dir.resolve("coordinator-state"), Duration.ofMillis(50), Duration.ofMillis(20),
                kafkaConfig, null, CoordinatorConfig.Failover.DEFAULTS, master, false, InputLimits.DEFAULTS,
                (short) 1, Duration.ofSeconds(1), null, null);
        coordinator = CoordinatorApp.start(config);
        await().atMost(WAIT).until(() -> coordinator.streams().state() == KafkaStreams.State.RUNNING);
    }

    @AfterAll
    static void stopEverything() {
        try {
            SIDECARS.forEach(Sidecar::close);
            if (coordinator != null) {
                coordinator.close();
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    @Test
    void shouldCompleteACheckpointTheRequesterTriggeredWhenEveryPrincipalHasOnlyItsGrants() {
        // given a job the requester registered with the CLI, and its two sidecars signed in as the sidecar principal
        assertThat(cli(Principal.REQUESTER, "register", "--job", JOB, "--task", "worker:2", "--interval-ms",
                "3600000", "--timeout-ms", "60000", "--storage", "file:///cairn-acls")).startsWith("exit 0");
        AckingHook worker0 = new AckingHook();
        AckingHook worker1 = new AckingHook();
        SIDECARS.add(Sidecar.start(sidecarConfig(0), worker0));
        SIDECARS.add(Sidecar.start(sidecarConfig(1), worker1));

        // when the requester triggers a checkpoint
        assertThat(cli(Principal.REQUESTER, "trigger", "--job", JOB, "--request-id", "acls-1")).startsWith("exit 0");

        // then the auditor reads in the journal that it completed with both sidecars' acks, and the sidecars were told
        RequestOutcome outcome;
        try (TopicTail<JournalEnvelope> journal = TopicTail.fromBeginning(kafka.client(Principal.AUDITOR),
                TOPICS.journal(), CairnSerdes.journal().deserializer(), JournalEnvelope::getEvent)) {
            outcome = journal.await(RequestOutcome.class, o -> o.getRequestId().equals("acls-1")
                    && o.getStatus() != RequestStatus.TRIGGERED, WAIT);
            assertThat(outcome.getStatus()).as(String.valueOf(outcome)).isEqualTo(RequestStatus.COMPLETED);
            CheckpointCompleted completed = journal.await(CheckpointCompleted.class,
                    c -> c.getJobId().equals(JOB) && c.getCheckpointId() == outcome.getCheckpointId(), WAIT);
            assertThat(completed.getTotalSizeBytes()).isEqualTo(2 * AckingHook.SIZE_BYTES);
        }
        await().atMost(WAIT).until(() -> worker0.completed().contains(outcome.getCheckpointId())
                && worker1.completed().contains(outcome.getCheckpointId()));
        // and the requester lists the job's savepoints, which replays the journal
        assertThat(cli(Principal.REQUESTER, "savepoint", "list", "--job", JOB)).startsWith("exit 0");
        // and the auditor checks the journal with cairn audit, and reads the schemas the coordinator and the sidecars
        // published
        assertThat(cli(Principal.AUDITOR, "audit", "check")).startsWith("exit 0").contains("no violation");
        List<SchemaCatalog.Entry> schemas = new SchemaTopicSource(kafka.client(Principal.AUDITOR), TOPICS.schemas(),
                WAIT).readNew();
        assertThat(schemas).extracting(SchemaCatalog.Entry::key)
                .contains(SchemaPublisher.key(JournalEnvelope.getClassSchema()),
                        SchemaPublisher.key(AckEnvelope.getClassSchema()));
    }

    @Test
    void shouldDeadLetterAnUnsignedRequestOnTheTopicOnlyTheCoordinatorMayWrite() throws Exception {
        // given a request the requester wrote without signing it
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka.client(Principal.REQUESTER),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(TOPICS.requests(), "acls-unsigned", new byte[] {1, 2, 3}))
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }

        // when the coordinator reads it, then it dead-letters it, as the admin reads there
        try (TopicTail<byte[]> dlq = TopicTail.fromBeginning(kafka.adminClient(), TOPICS.dlq(),
                new ByteArrayDeserializer(), value -> value)) {
            ConsumerRecord<String, byte[]> dead = dlq.awaitNextRecord(r -> "acls-unsigned".equals(r.key()), WAIT,
                    "the unsigned request's dead letter");
            assertThat(new String(dead.headers().lastHeader(DeadLetterQueueHandler.REASON).value(),
                    StandardCharsets.UTF_8)).isEqualTo("UNSIGNED");
        }
    }

    @Test
    void shouldWriteSnapshotsOfTheJournalWithTheCoordinatorsGrants() {
        // given a journal with records: a job the requester registered
        assertThat(cli(Principal.REQUESTER, "register", "--job", "acls-snapshots", "--task", "worker:1",
                "--interval-ms", "3600000", "--timeout-ms", "60000", "--storage", "file:///cairn-acls"))
                .startsWith("exit 0");

        // when a second goes by, then the coordinator has written a snapshot of it, as the admin reads there
        try (TopicTail<byte[]> snapshots = TopicTail.fromBeginning(kafka.adminClient(), TOPICS.snapshots(),
                new ByteArrayDeserializer(), value -> value)) {
            assertThat(snapshots.awaitNextRecord(r -> r.value() != null, WAIT, "a snapshot").value()).isNotEmpty();
        }
    }

    @Test
    void shouldRefuseASidecarWritingTheRequestsTopic() {
        assertThat(Refusals.writing(kafka.client(Principal.SIDECAR), TOPICS.requests()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseASidecarWritingTheControlTopic() {
        assertThat(Refusals.writing(kafka.client(Principal.SIDECAR), TOPICS.control()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseASidecarWritingTheJournal() {
        assertThat(Refusals.writing(kafka.client(Principal.SIDECAR), TOPICS.journal()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseASidecarReadingTheJournal() {
        assertThat(Refusals.reading(kafka.client(Principal.SIDECAR), TOPICS.journal()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseASidecarJoiningTheCoordinatorsGroup() {
        assertThat(Refusals.readingInGroup(kafka.client(Principal.SIDECAR), APPLICATION_ID, TOPICS.control()))
                .isInstanceOf(GroupAuthorizationException.class);
    }

    @Test
    void shouldRefuseASidecarUsingTheCoordinatorsTransactionalIds() {
        assertThat(Refusals.transacting(kafka.client(Principal.SIDECAR), APPLICATION_ID + "-forged-0"))
                .isInstanceOf(TransactionalIdAuthorizationException.class);
    }

    @Test
    void shouldRefuseARequesterReadingTheAcksTopic() {
        assertThat(Refusals.reading(kafka.client(Principal.REQUESTER), TOPICS.acks()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseARequesterWritingTheAcksTopic() {
        assertThat(Refusals.writing(kafka.client(Principal.REQUESTER), TOPICS.acks()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseARequesterWritingTheControlTopic() {
        assertThat(Refusals.writing(kafka.client(Principal.REQUESTER), TOPICS.control()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void shouldRefuseAnAuditorWritingTheJournal() {
        assertThat(Refusals.writingWithoutIdempotence(kafka.client(Principal.AUDITOR), TOPICS.journal()))
                .isInstanceOf(TopicAuthorizationException.class);
        assertThat(Refusals.writing(kafka.client(Principal.AUDITOR), TOPICS.journal()))
                .as("an idempotent producer is refused its producer id first: the auditor may write no topic")
                .isInstanceOf(ClusterAuthorizationException.class);
    }

    @Test
    void shouldRefuseAnAuditorReadingTheAcksTopic() {
        assertThat(Refusals.reading(kafka.client(Principal.AUDITOR), TOPICS.acks()))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    /** A sidecar of subtask {@code subtask} of the job's task, configured as a deployed one: {@code kafka.*} keys. */
    private static SidecarConfig sidecarConfig(int subtask) {
        Map<String, String> props = new HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "job.id", JOB, "task.id", "worker", "subtask.index", String.valueOf(subtask), "hook.kind", "java",
                "auth.key", master.jobKey(JOB).toBase64(), "startup.timeout.ms", "60000"));
        kafka.security(Principal.SIDECAR).forEach((key, value) -> props.put("kafka." + key, value));
        return SidecarConfig.fromProperties(props, Map.of());
    }

    /**
     * Runs {@code cairn <args>} in this JVM as {@code who}: its {@code --kafka-config} file, and the requests key.
     * Returns {@code exit <code>} and what the command printed.
     */
    private static String cli(Principal who, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-servers", kafka.bootstrapServers(), "--kafka-config",
                kafka.kafkaConfigFile(who, dir).toString()));
        if (who == Principal.REQUESTER) {
            all.addAll(List.of("--requests-key-file", dir.resolve("requests.key").toString()));
        }
        StringWriter printed = new StringWriter();
        PrintWriter writer = new PrintWriter(printed, true);
        picocli.CommandLine command = CairnCli.commandLine();
        command.setOut(writer);
        command.setErr(writer);
        int exit = command.execute(all.toArray(String[]::new));
        writer.flush();
        return "exit " + exit + "\n" + printed;
    }
}
