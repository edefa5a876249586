package dev.cairn.bench.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SharedKeyVerifyingDeserializer;
import dev.cairn.auth.SigningKey;
import dev.cairn.auth.VerifyingDeserializer;
import dev.cairn.bench.e2e.Workload.Job;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.serde.EventDecodingException;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's records of the acks topic, signed as a sidecar signs them, and of the requests topic, signed as the
 * REST API and the CLI sign them; or not at all with --unsigned.
 */
class SidecarKeysTest {

    private static final String TOPIC = "cairn.acks";

    @Test
    void shouldSignEveryRecordSoThatACoordinatorWithTheMasterKeyAcceptsIt() {
        Workload workload = new Workload(100, SidecarKeys.signed());
        Job job = workload.newJob(3);
        AckEnvelope ack = workload.ack(job, job.vertices().get(0), 2, 7);
        RecordHeaders headers = new RecordHeaders();

        byte[] value = workload.keys().ackSerializer().serialize(TOPIC, headers, ack);

        assertThat(RecordSignatures.signature(headers)).hasSize(32);
        AckEnvelope read = new VerifyingDeserializer<>(CairnSerdes.acks(), workload.keys().masterKey(),
                EnvelopeJobIds::of).deserialize(TOPIC, headers, value);
        assertThat(read).isEqualTo(ack);
    }

    @Test
    void shouldSignWithTheKeyOfTheRecordsOwnJob() {
        Workload workload = new Workload(100, SidecarKeys.signed());
        Job first = workload.newJob(1);
        Job second = workload.newJob(1);
        RecordHeaders headers = new RecordHeaders();

        byte[] value = workload.keys().ackSerializer().serialize(TOPIC, headers,
                workload.taskStarted(second, second.vertices().get(0), 0));

        SigningKey master = workload.keys().masterKey();
        assertThat(master.jobKey(second.id()).verifies(value, RecordSignatures.signature(headers))).isTrue();
        assertThat(master.jobKey(first.id()).verifies(value, RecordSignatures.signature(headers))).isFalse();
    }

    @Test
    void shouldRefuseRecordsSignedUnderAnotherMasterKey() {
        Workload workload = new Workload(100, SidecarKeys.signed());
        Job job = workload.newJob(1);
        RecordHeaders headers = new RecordHeaders();
        byte[] value = workload.keys().ackSerializer().serialize(TOPIC, headers,
                workload.taskStarted(job, job.vertices().get(0), 0));

        assertThatThrownBy(() -> new VerifyingDeserializer<>(CairnSerdes.acks(), SidecarKeys.signed().masterKey(),
                EnvelopeJobIds::of).deserialize(TOPIC, headers, value))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
    }

    @Test
    void shouldProduceNoSignatureWhenUnsigned() {
        Workload workload = new Workload(100, SidecarKeys.unsigned());
        Job job = workload.newJob(2);
        AckEnvelope ack = workload.ack(job, job.vertices().get(0), 1, 3);
        RecordHeaders headers = new RecordHeaders();

        byte[] value = workload.keys().ackSerializer().serialize(TOPIC, headers, ack);

        assertThat(workload.keys().isSigned()).isFalse();
        assertThat(workload.keys().masterKey()).isNull();
        assertThat(RecordSignatures.signature(headers)).isNull();
        assertThat(CairnSerdes.acks().deserializer().deserialize(TOPIC, headers, value)).isEqualTo(ack);
    }

    @Test
    void shouldDeriveTheSameJobKeyAsTheCoordinator() {
        SidecarKeys keys = SidecarKeys.signed();
        keys.add("job-a");
        byte[] data = {1, 2, 3};

        assertThat(keys.jobKey("job-a").mac(data)).isEqualTo(keys.masterKey().jobKey("job-a").mac(data));
        assertThat(keys.jobKey("never-added").mac(data))
                .isEqualTo(keys.masterKey().jobKey("never-added").mac(data));
    }

    @Test
    void shouldSignEveryRequestSoThatACoordinatorWithTheMasterKeyAcceptsIt() {
        Workload workload = new Workload(100, SidecarKeys.signed());
        Job job = workload.newJob(2);
        SharedKeyVerifyingDeserializer<RequestEnvelope> coordinator = new SharedKeyVerifyingDeserializer<>(
                CairnSerdes.requests(), workload.keys().masterKey().requestsKey(), false, "sign it");

        for (RequestEnvelope request : List.of(workload.jobSpec(job), workload.trigger(job, "r-1"))) {
            RecordHeaders headers = new RecordHeaders();
            byte[] value = workload.keys().requestSerializer().serialize("cairn.requests", headers, request);

            assertThat(coordinator.deserialize("cairn.requests", headers, value)).isEqualTo(request);
        }
    }

    @Test
    void shouldProduceRequestsWithoutSignatureWhenUnsigned() {
        Workload workload = new Workload(100, SidecarKeys.unsigned());
        RecordHeaders headers = new RecordHeaders();

        workload.keys().requestSerializer().serialize("cairn.requests", headers,
                workload.jobSpec(workload.newJob(1)));

        assertThat(RecordSignatures.signature(headers)).isNull();
    }
}
