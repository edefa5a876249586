package dev.cairn.coordinator.http;

import dev.cairn.client.Json;
import dev.cairn.core.views.ApiViews;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty itself detects before the API sees a request (headers too large, a malformed
 * request line, ...) as the API answers its own: JSON {@code {"error": "..."}}.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) {
        String reason = message != null && !message.isBlank() ? message : HttpStatus.getMessage(code);
        byte[] body = Json.bytes(new ApiViews.Error(code + " " + reason));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
