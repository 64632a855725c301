require "logger"
require "action_cable"
require "action_cable/subscription_adapter/async"

module ApplicationCable
  class Connection < ActionCable::Connection::Base
    identified_by :user
    def connect
      session = env["HTTP_COOKIE"].to_s[/session=(\w+)/, 1]
      reject_unauthorized_connection unless session
      self.user = session
    end
  end
end

class RoomChannel < ActionCable::Channel::Base
  def subscribed
    return reject if params[:reject]
    stream_from "room_#{params[:room]}"
  end

  def speak(data)
    ActionCable.server.broadcast("room_#{params[:room]}", { "text" => data["text"], "user" => connection.user })
  end
end

ActionCable.server.config.cable = { "adapter" => "async" }
ActionCable.server.config.connection_class = -> { ApplicationCable::Connection }
ActionCable.server.config.allowed_request_origins = ["http://allowed.test"]
ActionCable.server.config.logger = Logger.new($stderr, level: :warn)
run ActionCable.server
