"""Tabula over MQTT: each board publishes its status and events; the hub subscribes.

* :mod:`~controller.mqtt.codec` — topics and payloads, pure (``TOPICS.md`` documents them).
* :mod:`~controller.mqtt.outbox` — the bounded queue of what is still to publish.
* :mod:`~controller.mqtt.publisher` — the asyncio shell on aiomqtt that publishes a
  :class:`~controller.status.BoardService`.
"""

from controller.mqtt.codec import (
    KINDS,
    MAX_PAYLOAD,
    OFFLINE,
    ONLINE,
    Kind,
    decode_event,
    decode_heartbeat,
    decode_online,
    decode_status,
    encode_event,
    encode_heartbeat,
    encode_status,
    journal_events,
    parse_topic,
    subscriptions,
    topic,
)
from controller.mqtt.errors import MqttError, PayloadError, TopicError
from controller.mqtt.outbox import Outbox
from controller.mqtt.publisher import MqttPublisher, backoff_delay, client_options, connected

__all__ = [
    "KINDS",
    "MAX_PAYLOAD",
    "OFFLINE",
    "ONLINE",
    "Kind",
    "MqttError",
    "MqttPublisher",
    "Outbox",
    "PayloadError",
    "TopicError",
    "backoff_delay",
    "client_options",
    "connected",
    "decode_event",
    "decode_heartbeat",
    "decode_online",
    "decode_status",
    "encode_event",
    "encode_heartbeat",
    "encode_status",
    "journal_events",
    "parse_topic",
    "subscriptions",
    "topic",
]
