// The paid-check tests here run the real client against the client's own stand-in of the API.
export { type FakePaidApiOptions, fakePaidApi } from "@presend/client/testing";
