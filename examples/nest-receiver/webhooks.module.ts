// The module that serves /webhooks with a given receiver.
import { Module, type DynamicModule } from '@nestjs/common';
import type { Receiver } from '@hookgate/core';
import { RECEIVER, WebhooksController } from './webhooks.controller.js';

/**
 * `WebhooksModule.forReceiver(receiver)` in your application module's `imports`.
 *
 * @example
 * const app = await NestFactory.create(WebhooksModule.forReceiver(createReceiver({ secret, onMessage })), { rawBody: true });
 */
@Module({})
export class WebhooksModule {
  static forReceiver(receiver: Receiver): DynamicModule {
    return {
      module: WebhooksModule,
      controllers: [WebhooksController],
      providers: [{ provide: RECEIVER, useValue: receiver }],
    };
  }
}
