package dev.cairn.demo.acls;

import static org.awaitility.Awaitility.await;

import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import dev.cairn.kafka.SaslScram;
import dev.cairn.topics.KafkaAcls;
import dev.cairn.topics.KafkaAcls.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * A broker that enforces ACLs, and Cairn's principals on it: the embedded KRaft broker with a SASL_PLAINTEXT listener
 * (SCRAM-SHA-512), Kafka's {@code StandardAuthorizer} and {@code allow.everyone.if.no.acl.found=false}; a super user
 * for the broker and one for the test's admin; and one SCRAM user per {@link Principal}, created with
 * {@code Admin.alterUserScramCredentials} and given exactly the {@link KafkaAcls#bindings} of its principal, nothing
 * else.
 */
final class SecuredKafka implements AutoCloseable {

    /** The coordinator's application id: its group, and the prefix of its changelogs and transactional ids. */
    static final String APPLICATION_ID = "cairn-acls";
    /** Cairn's topics, with the default prefix the table names. */
    static final CairnTopics TOPICS = CairnTopics.defaults();

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final EmbeddedKafkaBroker broker;
    private final SaslScram sasl;
    private final Map<Principal, String> passwords = new EnumMap<>(Principal.class);

    private SecuredKafka(EmbeddedKafkaBroker broker, SaslScram sasl) {
        this.broker = broker;
        this.sasl = sasl;
    }

    /** Starts the broker, creates every principal's user and grants it its ACLs; returns once the broker has them. */
    static SecuredKafka start() {
        SaslScram sasl = SaslScram.sha512("admin", secret());
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Map.of(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "allow.everyone.if.no.acl.found", "false"), sasl);
        SecuredKafka kafka = new SecuredKafka(broker, sasl);
        try {
            kafka.createPrincipals();
            return kafka;
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    private void createPrincipals() {
        List<UserScramCredentialAlteration> users = new ArrayList<>();
        List<AclBinding> acls = new ArrayList<>();
        for (Principal principal : Principal.values()) {
            passwords.put(principal, secret());
            users.add(new UserScramCredentialUpsertion(user(principal),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), passwords.get(principal)));
            acls.addAll(KafkaAcls.bindings(principal, SaslScram.principal(user(principal)), TOPICS, APPLICATION_ID));
        }
        try (Admin admin = broker.createAdmin()) {
            admin.alterUserScramCredentials(users).all().get();
            admin.createAcls(acls).all().get();
            await().atMost(WAIT).until(() -> new HashSet<>(admin.describeAcls(AclBindingFilter.ANY).values().get())
                    .containsAll(acls) && admin.describeUserScramCredentials().users().get().size() == users.size()
                            + 2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the principals", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not create the principals", e.getCause());
        }
    }

    /** The SCRAM user of {@code principal}. */
    static String user(Principal principal) {
        return "cairn-" + principal.name().toLowerCase();
    }

    /** What a Kafka client of {@code principal} sets: {@code bootstrap.servers} and its SASL settings. */
    Map<String, Object> client(Principal principal) {
        Map<String, Object> props = new HashMap<>(security(principal));
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    /** The SASL settings of {@code principal}, as its {@code kafka.config} file or {@code kafka.*} keys carry them. */
    Map<String, String> security(Principal principal) {
        return sasl.clientProperties(user(principal), passwords.get(principal));
    }

    /** Writes {@link #security} of {@code principal} to a properties file in {@code dir}, as an operator would. */
    Path kafkaConfigFile(Principal principal, Path dir) {
        Properties props = new Properties();
        props.putAll(security(principal));
        Path file = dir.resolve(user(principal) + ".properties");
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(writer, "Kafka client settings of " + principal.label());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** An admin client of the test's super user, which sees everything. */
    Admin admin() {
        return broker.createAdmin();
    }

    /** The super user's client settings. */
    Map<String, Object> adminClient() {
        return broker.adminClientProperties();
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public void close() {
        broker.close();
    }

    private static String secret() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
