// A USB host for one CDC-ACM device on rp2040js's device-mode controller: it
// enumerates the firmware as a PC would (address, device and configuration descriptors,
// the serial-number string, configuration, DTR/RTS), then carries serial bytes both
// ways. Unlike a bare helper, a data OUT endpoint's read is held until the host has
// bytes to send (a real host NAKs), because rp2040-hal does not re-arm an endpoint that
// was answered with zero bytes. It can be unplugged and plugged back (a bus reset and
// a new enumeration).

import { createSetupPacket } from 'rp2040js';

const DESCRIPTOR_DEVICE = 1;
const DESCRIPTOR_CONFIGURATION = 2;
const DESCRIPTOR_STRING = 3;
const DESCRIPTOR_INTERFACE = 4;
const DESCRIPTOR_ENDPOINT = 5;
const CDC_DATA_CLASS = 10;
const SET_CONTROL_LINE_STATE = 0x22;
const LANGUAGE_EN_US = 0x0409;
const DEVICE_ADDRESS = 1;

const standard = (bRequest, wValue, wLength = 0, wIndex = 0, deviceToHost = false) =>
  createSetupPacket({
    dataDirection: deviceToHost ? 1 : 0,
    type: 0,
    recipient: 0,
    bRequest,
    wValue,
    wIndex,
    wLength,
  });

/** The bulk endpoints of the CDC data interface in a configuration descriptor. */
function dataEndpoints(descriptors) {
  const found = { in: -1, out: -1 };
  let inData = false;
  for (let i = 0; i + 1 < descriptors.length && descriptors[i] >= 2; i += descriptors[i]) {
    const type = descriptors[i + 1];
    if (type === DESCRIPTOR_INTERFACE) inData = descriptors[i + 5] === CDC_DATA_CLASS;
    if (inData && type === DESCRIPTOR_ENDPOINT && (descriptors[i + 3] & 3) === 2) {
      const address = descriptors[i + 2];
      if (address & 0x80) found.in = address & 0x0f;
      else found.out = address & 0x0f;
    }
  }
  return found;
}

export class CdcHost {
  /**
   * @param usb rp2040js's RPUSBController
   * @param on { connected(serialNumber), data(Uint8Array), delivered(count), log(text) }
   */
  constructor(usb, on) {
    this.usb = usb;
    this.on = on;
    this.toDevice = [];
    this.plugged = true;
    this.reset();
    usb.onUSBEnabled = () => this.plugged && usb.resetDevice();
    usb.onResetReceived = () => this.enumerate();
    usb.onEndpointWrite = (endpoint, buffer) => this.fromDevice(endpoint, buffer);
    usb.onEndpointRead = (endpoint, size) => this.deviceWantsBytes(endpoint, size);
  }

  reset() {
    this.configured = false;
    this.endpoints = { in: -1, out: -1 };
    this.heldRead = new Map();
    this.control = null;
    this.steps = [];
    this.serialNumber = null;
  }

  /** Bytes for the device; sent as soon as it asks. */
  send(bytes) {
    if (!this.plugged) return;
    for (const byte of bytes) this.toDevice.push(byte);
    this.serveHeldRead();
  }

  unplug() {
    this.plugged = false;
    this.toDevice = [];
    this.reset();
  }

  plugIn() {
    this.plugged = true;
    this.reset();
    this.usb.resetDevice();
  }

  /** The standard requests of an enumeration, each with what to do with its answer. */
  enumerate() {
    this.reset();
    this.steps = [
      request(standard(5, DEVICE_ADDRESS)),
      request(standard(6, DESCRIPTOR_DEVICE << 8, 18, 0, true), (d) => (this.serialIndex = d[16])),
      request(standard(6, DESCRIPTOR_CONFIGURATION << 8, 9, 0, true), (d) => this.askWholeConfiguration(d)),
    ];
    this.next();
  }

  askWholeConfiguration(header) {
    const total = header[2] | (header[3] << 8);
    this.steps.unshift(request(standard(6, DESCRIPTOR_CONFIGURATION << 8, total, 0, true), (d) => this.configure(d)));
  }

  configure(configuration) {
    this.endpoints = dataEndpoints(configuration);
    if (this.endpoints.in < 0 || this.endpoints.out < 0) {
      this.on.log('no CDC data endpoints in the configuration descriptor');
      return;
    }
    const later = [];
    if (this.serialIndex) {
      const serial = standard(6, (DESCRIPTOR_STRING << 8) | this.serialIndex, 255, LANGUAGE_EN_US, true);
      later.push(request(serial, (d) => (this.serialNumber = utf16(d))));
    }
    later.push(request(standard(9, 1)));
    const lineState = { dataDirection: 0, type: 1, recipient: 1, bRequest: SET_CONTROL_LINE_STATE, wValue: 3, wIndex: 0, wLength: 0 };
    later.push(request(createSetupPacket(lineState), () => this.connected()));
    this.steps.unshift(...later);
  }

  connected() {
    this.configured = true;
    this.on.connected(this.serialNumber);
    this.serveHeldRead();
  }

  next() {
    const step = this.steps.shift();
    if (!step) return;
    this.control = { ...step, data: [] };
    this.usb.sendSetupPacket(step.packet);
  }

  /** A request is answered: all its data (or a short packet), or the zero-length status. */
  fromDevice(endpoint, buffer) {
    if (!this.plugged) return;
    if (endpoint === 0) {
      const control = this.control;
      if (!control) return;
      if (control.wants > 0) {
        control.data.push(...buffer);
        if (buffer.length === 64 && control.data.length < control.wants) return;
      } else if (buffer.length !== 0) {
        return;
      }
      this.control = null;
      control.then?.(Uint8Array.from(control.data));
      this.next();
    } else if (endpoint === this.endpoints.in && this.configured) {
      this.on.data(buffer);
    }
  }

  deviceWantsBytes(endpoint, size) {
    // A control read's status stage is left unanswered: the next SETUP starts afresh.
    if (endpoint === 0) return;
    this.heldRead.set(endpoint, size);
    this.serveHeldRead();
  }

  serveHeldRead() {
    const endpoint = this.endpoints.out;
    if (!this.configured || !this.heldRead.has(endpoint) || this.toDevice.length === 0) return;
    const size = this.heldRead.get(endpoint);
    this.heldRead.delete(endpoint);
    const chunk = Uint8Array.from(this.toDevice.splice(0, Math.min(size, this.toDevice.length)));
    this.usb.endpointReadDone(endpoint, chunk);
    this.on.delivered?.(chunk.length);
  }
}

/** A control request: its SETUP packet, how many bytes it reads, what to do with them. */
function request(packet, then) {
  return { packet, wants: packet[6] | (packet[7] << 8), then };
}

function utf16(descriptor) {
  let text = '';
  for (let i = 2; i + 1 < descriptor.length; i += 2) text += String.fromCharCode(descriptor[i] | (descriptor[i + 1] << 8));
  return text;
}
