package dev.cairn.client.requests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A restore and a savepoint's disposal go the way of every request: in an envelope, keyed by their job id. */
class RequestSenderTest {

    private final List<String> keys = new ArrayList<>();
    private final List<RequestEnvelope> sent = new ArrayList<>();
    private final RequestSender sender = new RequestSender() {
        @Override
        public Delivery send(String jobId, RequestEnvelope envelope) {
            keys.add(jobId);
            sent.add(envelope);
            return new Delivery("cairn.requests", 0, sent.size() - 1);
        }

        @Override
        public void close() {
        }
    };

    @Test
    void shouldSendARestoreAndADisposalKeyedByTheirJob() {
        RestoreJob restore = RestoreJob.newBuilder().setJobId("orders").setRequestId("r1").setCheckpointId(7L)
                .setRestoreMode(RestoreMode.CLAIM).setRequester("test").setTimestampMs(1).build();
        DisposeSavepoint dispose = DisposeSavepoint.newBuilder().setJobId("orders").setRequestId("d1")
                .setSavepointPath("file:///sp-1").setRequester("test").setTimestampMs(2).build();

        sender.send(restore);
        sender.send(dispose);

        assertThat(keys).containsExactly("orders", "orders");
        assertThat(sent).extracting(RequestEnvelope::getEvent).containsExactly(restore, dispose);
    }
}
